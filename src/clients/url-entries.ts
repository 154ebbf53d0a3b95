import type { Edit } from 'jsonc-parser';
import { isDeepStrictEqual } from 'node:util';
import { membersOf, plainValueOf } from './config-text.js';
import type { ServerEntry } from './server-entries.js';
import type { SpyProgram, WrapLabel } from './spy-invocation.js';
import type { WrappedEntry } from './wrap-manifest.js';

/** The first port offered to spies on remote servers; each entry wrapped with --http gets its own. */
export const firstHttpPort = 7301;

/** The next port from the first on that no entry wrapped with --http uses yet; taken. */
export function takePort(used: Set<number>): number {
  let port = firstHttpPort;
  while (used.has(port)) port += 1;
  used.add(port);
  return port;
}

/** The ports the entries of a manifest point at. */
export function portsOf(entries: readonly WrappedEntry[]): number[] {
  return entries.flatMap((entry) => {
    const listen = entry.run?.[entry.run.indexOf('--listen') + 1];
    const port = Number(listen?.split(':').at(-1));
    return entry.run && Number.isInteger(port) ? [port] : [];
  });
}

/** The manifest's record of an entry, when the entry is still as wrap left it. */
export function knownWrap(entry: ServerEntry, known: readonly WrappedEntry[]): WrappedEntry | undefined {
  const value = plainValueOf(entry.node);
  return known.find(
    (wrapped) =>
      wrapped.path.length === entry.path.length && wrapped.path.every((key, index) => key === entry.path[index]) && isDeepStrictEqual(wrapped.wrapped, value),
  );
}

/**
 * Points a URL entry at a spy the user runs on this machine (`wrap --http`): its url becomes the same
 * path on 127.0.0.1 and a port of its own; `run` is the command that starts that spy. Undefined when
 * the URL is not one a spy can forward to (a placeholder the client fills in, say).
 */
export function urlWrap(entry: ServerEntry, url: string, spy: SpyProgram, label: WrapLabel, used: Set<number>): { edits: Edit[]; run: string[] } | undefined {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return undefined;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return undefined;
  const valueNode = membersOf(entry.node).find((member) => member.name === 'url' || member.name === 'serverUrl')?.value;
  if (!valueNode) return undefined;
  const port = takePort(used);
  const local = `http://127.0.0.1:${port}${target.pathname}${target.search}`;
  const run = [spy.node, spy.bin, 'http', '--target', url, '--listen', `127.0.0.1:${port}`, '--client', label.client, '--name', label.name];
  return { edits: [{ offset: valueNode.offset, length: valueNode.length, content: JSON.stringify(local) }], run };
}
