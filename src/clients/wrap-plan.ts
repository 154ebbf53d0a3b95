import { applyEdits, type Edit } from 'jsonc-parser';
import { syntaxOf, type ConfigPlace } from './client-table.js';
import { nodeAt, parseConfig, textOf, plainValueOf } from './config-text.js';
import { commandEdits } from './entry-edits.js';
import { serverEntries, type ServerEntry } from './server-entries.js';
import { wrappedCommand, type SpyProgram } from './spy-invocation.js';
import { knownWrap, urlWrap } from './url-entries.js';
import type { WrappedEntry } from './wrap-manifest.js';

/** What wrap does with one entry, in words for the user. */
export interface EntryNote {
  place: ConfigPlace;
  name: string;
  /** True when the entry is changed. */
  changes: boolean;
  says: string;
  /** For a URL entry: the command that runs the spy it points at (or would, with --http). */
  run?: string[];
}

/** The change to one config file: its text before and after, what each entry gets, and what the manifest keeps. */
export interface FilePlan {
  before: string;
  after: string;
  notes: EntryNote[];
  wrapped: WrappedEntry[];
}

export interface WrapChoice {
  spy: SpyProgram;
  /** Only entries of these names (all when empty). */
  servers: readonly string[];
  /** --http: point URL entries at a spy the user runs. */
  http?: boolean;
  /** The ports URL entries point at already (from the manifest), and those taken in this run. */
  ports?: Set<number>;
}

/** What the manifest knows of this file's entries, to tell a URL entry already pointed at a spy. */
export type KnownEntries = readonly WrappedEntry[];

const remoteWhy = "a client pointed at a spy's port fails whenever no spy runs there";

/** What wrap does with a URL entry: left as it is, unless --http asks to point it at a spy the user runs. */
function planUrl(
  entry: ServerEntry,
  url: string,
  place: ConfigPlace,
  choice: WrapChoice,
  known: KnownEntries,
): { edits: Edit[]; note: EntryNote; run?: string[] } {
  const note = (changes: boolean, says: string, run?: string[]): EntryNote => ({ place, name: entry.name, changes, says, ...(run ? { run } : {}) });
  const before = knownWrap(entry, known);
  if (before) return { edits: [], note: note(false, 'already points at a spy on this machine; it runs with', before.run) };
  const ports = (choice.ports ??= new Set<number>());
  // Without --http the port is still taken for this run, so that each entry's advice names its own.
  const wrapped = urlWrap(entry, url, choice.spy, { client: place.client, name: entry.name }, ports);
  if (!wrapped) return { edits: [], note: note(false, `a remote server (${url}) that no spy can stand in for: left as it is`) };
  if (!choice.http)
    return {
      edits: [],
      note: note(false, `a remote server (${url}) is not wrapped: ${remoteWhy}. With --http, wrap points it at a spy you run yourself, with`, wrapped.run),
    };
  return { edits: wrapped.edits, note: note(true, `points at a spy you run yourself (${url} behind it), with`, wrapped.run), run: wrapped.run };
}

/** What wrap does with an entry: its edits and its note. */
function planEntry(
  config: Parameters<typeof commandEdits>[0],
  place: ConfigPlace,
  entry: ServerEntry,
  choice: WrapChoice,
  known: KnownEntries,
): { edits: Edit[]; note: EntryNote; run?: string[] } {
  const note = (changes: boolean, says: string): EntryNote => ({ place, name: entry.name, changes, says });
  switch (entry.kind.shape) {
    case 'stdio': {
      const wrapped = wrappedCommand(choice.spy, { client: place.client, name: entry.name }, entry.kind.command, entry.kind.args);
      return {
        edits: commandEdits(config, entry.node, wrapped.command, wrapped.args),
        note: note(true, `wrap: ${[entry.kind.command, ...entry.kind.args].join(' ')}`),
      };
    }
    case 'spied':
      return { edits: [], note: note(false, 'already runs mcp-spy: left as it is') };
    case 'url':
      return planUrl(entry, entry.kind.url, place, choice, known);
    case 'unknown':
      return { edits: [], note: note(false, `not a server entry mcp-spy can wrap (${entry.kind.why}): left as it is`) };
  }
}

/**
 * The wrap of one file, for the places of the table that are in it (Claude Code keeps two scopes in
 * ~/.claude.json). A file that does not parse, or whose servers are not an object, is refused whole.
 */
export function planWrap(
  text: string,
  places: readonly ConfigPlace[],
  choice: WrapChoice,
  known: KnownEntries = [],
): { ok: true; plan: FilePlan } | { ok: false; why: string } {
  const syntax = syntaxOf(places);
  const parsed = parseConfig(text, syntax);
  if (!parsed.ok) return parsed;
  const edits: Edit[] = [];
  const notes: EntryNote[] = [];
  const touched: { place: ConfigPlace; entry: ServerEntry; run?: string[] }[] = [];
  for (const place of places) {
    const found = serverEntries(parsed.config, place.serversAt);
    if (!found.ok) return found;
    for (const entry of found.entries) {
      if (choice.servers.length > 0 && !choice.servers.includes(entry.name)) continue;
      // A name twice in one object: the client keeps one (the last, with JSON.parse), and an undo by name could not tell them apart.
      const twice = found.entries.filter((other) => other.name === entry.name).length > 1;
      const planned = twice
        ? {
            edits: [],
            note: {
              place,
              name: entry.name,
              changes: false,
              says: 'named more than once here (a client uses only one of them): left as it is; give each its own name',
            },
          }
        : planEntry(parsed.config, place, entry, choice, known);
      edits.push(...planned.edits);
      notes.push(planned.note);
      if (planned.edits.length > 0) touched.push({ place, entry, ...(planned.run ? { run: planned.run } : {}) });
    }
  }
  const after = applyEdits(text, edits);
  const reparsed = parseConfig(after, syntax);
  if (!reparsed.ok) return { ok: false, why: `mcp-spy made a config that does not parse (${reparsed.why}): nothing written` };
  const wrapped = touched.map(({ place, entry, run }) => ({
    path: entry.path,
    client: place.client,
    original: textOf(parsed.config, entry.node),
    wrapped: plainValueOf(nodeAt(reparsed.config, entry.path)!),
    ...(run ? { run } : {}),
  }));
  return { ok: true, plan: { before: text, after, notes, wrapped } };
}
