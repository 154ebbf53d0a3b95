import type { IncomingHttpHeaders } from 'node:http';

/** Headers that describe one connection, not the message: a proxy must not pass them on (RFC 9110 7.6.1). */
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

/** The Connection values of nearly every exchange, which name no header beyond the hop-by-hop ones. */
const plainConnection = /^\s*(?:keep-alive|close)\s*$/i;

/** Names the Connection header lists as hop-by-hop too; undefined (the usual case) when there is none. */
function connectionTokens(raw: string[]): Set<string> | undefined {
  let named: Set<string> | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    // Both checks are cheap, and most names fail the first.
    if (raw[i]!.length !== 10 || raw[i]!.toLowerCase() !== 'connection' || plainConnection.test(raw[i + 1]!)) continue;
    for (const token of raw[i + 1]!.split(',')) {
      const name = token.trim().toLowerCase();
      if (!hopByHop.has(name)) (named ??= new Set()).add(name);
    }
  }
  return named;
}

/**
 * The raw header list (name, value, name, value ...) with hop-by-hop headers left out and, when
 * given, Host replaced: names, case, order and repeats stay as the peer sent them. This runs twice
 * for every exchange: the usual Connection value costs no Set, and no list is made but this one.
 */
export function forwardableHeaders(raw: string[], host?: string): string[] {
  const named = connectionTokens(raw);
  const out: string[] = host === undefined ? [] : ['Host', host];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (hopByHop.has(name) || named?.has(name)) continue;
    if (host !== undefined && name === 'host') continue;
    out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

/**
 * The server's own Connection header on a stream (SSE), to pass on instead of Node's: a stream's
 * head then reads as the server wrote it, without a Keep-Alive timeout that never applies to it.
 * Only a plain keep-alive or close, and not when the client asked to close (Node says so then).
 */
export function streamConnection(raw: readonly string[], request: IncomingHttpHeaders): string[] {
  if (/\bclose\b/i.test(headerText(request, 'connection') ?? '')) return [];
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'connection' && plainConnection.test(raw[i + 1]!)) return [raw[i]!, raw[i + 1]!];
  }
  return [];
}

/** One header's value as text, repeats joined as Node joins them. */
export function headerText(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
