import type { IncomingHttpHeaders } from 'node:http';

/** Headers that describe one connection, not the message: a proxy must not pass them on (RFC 9110 7.6.1). */
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

function connectionTokens(raw: string[]): Set<string> {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== 'connection') continue;
    for (const token of raw[i + 1]!.split(',')) named.add(token.trim().toLowerCase());
  }
  return named;
}

/**
 * The raw header list (name, value, name, value ...) with hop-by-hop headers left out and, when
 * given, Host replaced: names, case, order and repeats stay as the peer sent them.
 */
export function forwardableHeaders(raw: string[], host?: string): string[] {
  const named = connectionTokens(raw);
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (hopByHop.has(lower) || named.has(lower)) continue;
    if (host !== undefined && lower === 'host') continue;
    out.push(name, raw[i + 1]!);
  }
  if (host !== undefined) out.unshift('Host', host);
  return out;
}

/** One header's value as text, repeats joined as Node joins them. */
export function headerText(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
