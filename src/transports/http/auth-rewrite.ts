/**
 * Authorization (MCP 2025-03-26 on) has the server name its own URLs: the protected-resource
 * metadata's `resource`, the authorization server's endpoints, `resource_metadata` in a challenge,
 * redirects. A client that reached the server through the spy must see the spy's URL there, or it
 * rejects the metadata or goes around the spy; and the `resource` it sends back must reach the server
 * as the server's own URL. These pure functions move such URLs between the two origins.
 */

import type { AuthRewrite } from '../../wire/http/exchange-tap.js';
import { nestsDeeper } from '../../protocol/depth.js';

export type { AuthRewrite };

/** The target's origins (a loopback target under each of its names) and the spy's as the client used it. */
export interface Origins {
  target: string[];
  targetOrigin: string;
  spy: string;
}

const loopbackNames = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The origins for an exchange whose client named the spy `host` (its Host header). `named` is the
 * origin the server last called itself by (localhost where the target says 127.0.0.1): what it
 * expects back.
 */
export function originsOf(target: URL, host: string, named?: string): Origins {
  const names = loopbackNames.includes(target.hostname) ? loopbackNames : [target.hostname];
  const port = target.port ? `:${target.port}` : '';
  return { target: names.map((name) => `${target.protocol}//${name}${port}`), targetOrigin: named ?? target.origin, spy: `http://${host.toLowerCase()}` };
}

/** `value` with its origin moved from one of `from` to `to`; undefined when it is a URL elsewhere, or none. */
function moveUrl(value: string, from: readonly string[], to: string): string | undefined {
  const lower = value.toLowerCase();
  const origin = from.find((candidate) => lower.startsWith(candidate) && /^(?:[/?#]|$)/.test(value.slice(candidate.length)));
  return origin === undefined || origin === to ? undefined : `${to}${value.slice(origin.length)}`;
}

export const toSpy = (value: string, origins: Origins) => moveUrl(value, origins.target, origins.spy);
export const toTarget = (value: string, origins: Origins) => moveUrl(value, [origins.spy], origins.targetOrigin);

/** The response headers a client follows: a URL of the target in them becomes the spy's. */
const responseHeaders: Record<string, (value: string, origins: Origins) => string | undefined> = {
  location: toSpy,
  // A challenge names its metadata in a quoted parameter among others: each URL in it moves.
  'www-authenticate': (value, origins) => {
    const moved = value.replace(/"([^"]*)"/g, (whole, inner: string) => {
      const to = toSpy(inner, origins);
      return to === undefined ? whole : `"${to}"`;
    });
    return moved === value ? undefined : moved;
  },
};

/** The raw header list (name, value, ...) with the target's URLs given to the client as the spy's. */
export function rewriteResponseHeaders(raw: string[], origins: Origins, note: (rewrite: AuthRewrite) => void): string[] {
  // Copied only when something moves: this runs for every exchange.
  let out = raw;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (!Object.hasOwn(responseHeaders, name)) continue;
    const to = responseHeaders[name]!(raw[i + 1]!, origins);
    if (to === undefined) continue;
    note({ at: name as AuthRewrite['at'], from: raw[i + 1]!, to });
    if (out === raw) out = [...raw];
    out[i + 1] = to;
  }
  return out;
}

/** The discovery documents whose URLs a client follows (RFC 9728, RFC 8414, OpenID Connect Discovery). */
export function isDiscoveryPath(path: string): boolean {
  return /\/\.well-known\/(?:oauth-protected-resource|oauth-authorization-server|openid-configuration)(?:[/?]|$)/.test(path);
}

/** The path of the metadata a challenge names (`resource_metadata`) when it is on the target: a discovery document too. */
export function challengedMetadataPath(challenge: string, origins: Origins): string | undefined {
  const named = /resource_metadata="([^"]*)"/i.exec(challenge)?.[1];
  const moved = named === undefined ? undefined : toSpy(named, origins);
  if (moved === undefined || !URL.canParse(moved)) return undefined;
  const url = new URL(moved);
  return `${url.pathname}${url.search}`;
}

/** A JSON document with every string that is a URL of the target moved to the spy; undefined when none is. */
export function rewriteMetadata(body: Buffer, origins: Origins, note: (rewrite: AuthRewrite) => void): Buffer | undefined {
  let document: unknown;
  try {
    document = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  // No OAuth document nests this deep: passed on as it is rather than walked out of stack.
  if (nestsDeeper(document)) return undefined;
  let changed = false;
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const to = toSpy(value, origins);
      if (to === undefined) return value;
      changed = true;
      note({ at: 'metadata', from: value, to });
      return to;
    }
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, walk(inner)]));
    return value;
  };
  const moved = walk(document);
  return changed ? Buffer.from(JSON.stringify(moved), 'utf8') : undefined;
}

const decode = (text: string) => decodeURIComponent(text.replace(/\+/g, ' '));

/**
 * `a=b&c=d` with each `resource` that names the spy given to the server as its own URL. The other
 * parameters keep their bytes: only a moved value is encoded anew.
 */
export function rewriteResourceParams(encoded: string, origins: Origins, at: 'query' | 'form', note: (rewrite: AuthRewrite) => void): string {
  return encoded
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return pair;
      try {
        if (decode(pair.slice(0, equals)) !== 'resource') return pair;
        const from = decode(pair.slice(equals + 1));
        const to = toTarget(from, origins);
        if (to === undefined) return pair;
        note({ at, from, to });
        return `${pair.slice(0, equals)}=${encodeURIComponent(to)}`;
      } catch {
        return pair; // not percent-encoding the server could read either: it goes as it came
      }
    })
    .join('&');
}

/** A request path with its query's `resource` given to the server as its own URL. */
export function rewriteRequestPath(path: string, origins: Origins, note: (rewrite: AuthRewrite) => void): string {
  const question = path.indexOf('?');
  if (question < 0 || !path.includes('resource')) return path;
  return `${path.slice(0, question + 1)}${rewriteResourceParams(path.slice(question + 1), origins, 'query', note)}`;
}
