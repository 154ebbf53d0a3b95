import { tableOf } from '../../protocol/own-table.js';
import type { Correlator } from '../correlate/correlate.js';
import type { FrameReceipt } from './exchange-records.js';
import type { HeaderBag } from './mcp-headers.js';

/** An HTTP auth challenge as the record keeps it: the scheme and its parameters as sent. */
export type AuthChallenge = Record<string, string>;

/** `name=token` or `name="quoted \" string"`, as RFC 9110 writes auth parameters. */
const authParam = /([!#$%&'*+.^_`|~\w-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^,\s]*)/g;

/**
 * The challenge of a 401 (or a 403 asking for more scope) that carries `WWW-Authenticate`: the
 * server refuses the request until the client authorizes, so the request is not unanswered.
 * Only the first challenge is read (MCP servers send one, Bearer).
 */
export function readChallenge(status: number | undefined, headers: HeaderBag | undefined): AuthChallenge | undefined {
  if (status !== 401 && status !== 403) return undefined;
  const value = headers?.['www-authenticate'];
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === '') return undefined;
  const scheme = /^\s*([^\s,]+)/.exec(text)?.[1] ?? '';
  const params = [...text.slice(text.indexOf(scheme) + scheme.length).matchAll(authParam)].map(([, name, raw]) => {
    const unquoted = raw!.startsWith('"') ? raw!.slice(1, -1).replace(/\\(.)/g, '$1') : raw!;
    return [name!.toLowerCase(), unquoted] as const;
  });
  return tableOf([['scheme', scheme], ...params]);
}

/** The challenge in words: `auth challenge: Bearer, resource_metadata http://..., scope mcp:tools`. */
export function describeChallenge(challenge: AuthChallenge, requests: string[]): string {
  const said = ['resource_metadata', 'scope', 'error', 'error_description', 'realm']
    .filter((name) => challenge[name] !== undefined)
    .map((name) => `${name} ${challenge[name]}`);
  const refused = requests.length > 0 ? `; ${requests.join(', ')} to be sent again once authorized` : '';
  return `auth challenge: ${[challenge.scheme, ...said].join(', ')}${refused}`;
}

/** The client's requests among `entries` (a challenged exchange's), taken back from the correlator: none of them was taken. */
export function withdrawRefused(entries: FrameReceipt[], correlator: Pick<Correlator, 'withdraw'>) {
  return entries
    .filter((entry) => entry.kind === 'request' && entry.dir === 'c2s')
    .flatMap((entry) =>
      correlator.withdraw('c2s', entry.id ?? null) ? [{ seq: entry.seq, dir: 'c2s' as const, id: entry.id ?? null, method: entry.method ?? '' }] : [],
    );
}
