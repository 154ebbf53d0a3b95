import type { Node } from 'jsonc-parser';
import { membersOf, nodeAt, plainValueOf, type ConfigText } from './config-text.js';
import { spiedCommand } from './spy-invocation.js';

/** What an entry of a config's servers is, as far as wrapping goes. */
export type EntryShape =
  | { shape: 'stdio'; command: string; args: string[] }
  | { shape: 'spied'; command: string; args: string[] }
  | { shape: 'url'; url: string }
  | { shape: 'unknown'; why: string };

/** One named server entry and its place in the file. */
export interface ServerEntry {
  name: string;
  /** The keys from the file's top to this entry. */
  path: string[];
  node: Node;
  kind: EntryShape;
}

const urlTypes = new Set(['http', 'sse', 'streamable-http', 'streamableHttp']);

/** What an entry is: a command the client runs (stdio), one that already runs the spy, a URL, or something else. */
export function shapeOf(value: unknown): EntryShape {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { shape: 'unknown', why: 'not an object' };
  const entry = value as Record<string, unknown>;
  const url = typeof entry.url === 'string' ? entry.url : typeof entry.serverUrl === 'string' ? entry.serverUrl : undefined;
  // type "stdio" is run by its command whatever else the entry holds (a url left from an edit).
  const stdio = entry.type === 'stdio' && typeof entry.command === 'string';
  if (!stdio && (url !== undefined || (typeof entry.type === 'string' && urlTypes.has(entry.type))))
    return url === undefined ? { shape: 'unknown', why: 'a remote server without a url' } : { shape: 'url', url };
  if (typeof entry.command !== 'string' || entry.command === '') return { shape: 'unknown', why: 'no command' };
  if (entry.args !== undefined && !(Array.isArray(entry.args) && entry.args.every((arg) => typeof arg === 'string'))) {
    return { shape: 'unknown', why: 'its args are not a list of strings' };
  }
  const args = (entry.args as string[] | undefined) ?? [];
  const spied = spiedCommand(entry.command, args);
  return spied ? { shape: 'spied', ...spied } : { shape: 'stdio', command: entry.command, args };
}

/** The server entries at a place in the file (none when the key is not there), or why they cannot be read. */
export function serverEntries(config: ConfigText, serversAt: string[]): { ok: true; entries: ServerEntry[] } | { ok: false; why: string } {
  const servers = nodeAt(config, serversAt);
  if (!servers) return { ok: true, entries: [] };
  if (servers.type !== 'object') return { ok: false, why: `${serversAt.join('.')} is not an object` };
  const entries = membersOf(servers).map(({ name, value }) => ({ name, path: [...serversAt, name], node: value, kind: shapeOf(plainValueOf(value)) }));
  return { ok: true, entries };
}
