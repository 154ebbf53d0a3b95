import type { IncomingHttpHeaders } from 'node:http';

/** Headers that describe one connection, not the message: a proxy must not pass them on (RFC 9110 7.6.1). */
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

/** Names the Connection header lists as hop-by-hop too; undefined (the usual case) when there is none. */
function connectionTokens(lower: string[], raw: string[]): Set<string> | undefined {
  let named: Set<string> | undefined;
  for (let i = 0; i < lower.length; i++) {
    if (lower[i] !== 'connection') continue;
    named ??= new Set();
    for (const token of raw[2 * i + 1]!.split(',')) named.add(token.trim().toLowerCase());
  }
  return named;
}

/**
 * The raw header list (name, value, name, value ...) with hop-by-hop headers left out and, when
 * given, Host replaced: names, case, order and repeats stay as the peer sent them.
 */
export function forwardableHeaders(raw: string[], host?: string): string[] {
  // Each name is lowered once: this runs twice for every exchange.
  const lower: string[] = new Array(raw.length >> 1);
  for (let i = 0; i < lower.length; i++) lower[i] = raw[2 * i]!.toLowerCase();
  const named = connectionTokens(lower, raw);
  const out: string[] = host === undefined ? [] : ['Host', host];
  for (let i = 0; i < lower.length; i++) {
    const name = lower[i]!;
    if (hopByHop.has(name) || named?.has(name)) continue;
    if (host !== undefined && name === 'host') continue;
    out.push(raw[2 * i]!, raw[2 * i + 1]!);
  }
  return out;
}

/** One header's value as text, repeats joined as Node joins them. */
export function headerText(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
