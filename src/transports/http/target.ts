/** Where the spy listens: a host and a port (0: any free port). */
export interface ListenAddress {
  host: string;
  port: number;
}

/** The one origin the spy forwards to, and the path the client should use. */
export function parseTarget(text: string): { ok: true; url: URL } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: `${url.protocol} is not http: or https:` };
  if (url.username || url.password) return { ok: false, reason: 'credentials in the URL are not supported; pass them as headers from the client' };
  if (url.hash) return { ok: false, reason: 'a URL with a #fragment' };
  return { ok: true, url };
}

/** Reads `--listen`: PORT, HOST:PORT or [IPv6]:PORT. */
export function parseListen(text: string): { ok: true; address: ListenAddress } | { ok: false; reason: string } {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]*)):(\d+)$/.exec(text) ?? /^()()(\d+)$/.exec(text);
  if (!match) return { ok: false, reason: 'expected PORT, HOST:PORT or [IPv6]:PORT' };
  const port = Number(match[3]);
  if (!Number.isInteger(port) || port > 65535) return { ok: false, reason: `port ${match[3]} is out of range (0-65535)` };
  const host = match[1] || match[2] || '127.0.0.1';
  return { ok: true, address: { host, port } };
}

/** host:port as a URL writes it (IPv6 in brackets). */
export function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
