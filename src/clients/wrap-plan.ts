import { applyEdits, type Edit } from 'jsonc-parser';
import { clients, type ClientFacts, type ConfigPlace } from './client-table.js';
import { nodeAt, parseConfig, textOf, valueOf } from './config-text.js';
import { commandEdits } from './entry-edits.js';
import { serverEntries, type ServerEntry } from './server-entries.js';
import { wrappedCommand, type SpyProgram } from './spy-invocation.js';
import type { WrappedEntry } from './wrap-manifest.js';

/** What wrap does with one entry, in words for the user. */
export interface EntryNote {
  place: ConfigPlace;
  name: string;
  /** True when the entry is changed. */
  changes: boolean;
  says: string;
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
}

/** The URL a spy on a remote server would listen at, for the advice printed: the entry's path on a local port. */
function httpAdvice(url: string): string {
  let path = '/mcp';
  try {
    path = new URL(url).pathname;
  } catch {
    // Not a URL a spy could forward to; the advice still names the entry's.
  }
  return `a remote server (${url}) is not wrapped: a client pointed at a spy's port fails whenever no spy runs there. To spy on it, run mcp-spy http --target ${url} --listen 127.0.0.1:7000 and point the entry at http://127.0.0.1:7000${path}`;
}

/** What wrap does with an entry: its edits and its note. */
function planEntry(config: Parameters<typeof commandEdits>[0], place: ConfigPlace, entry: ServerEntry, choice: WrapChoice): { edits: Edit[]; note: EntryNote } {
  const note = (changes: boolean, says: string): EntryNote => ({ place, name: entry.name, changes, says });
  switch (entry.kind.shape) {
    case 'stdio': {
      const wrapped = wrappedCommand(choice.spy, { client: place.client, name: entry.name }, entry.kind.command, entry.kind.args);
      return { edits: commandEdits(config, entry.node, wrapped.command, wrapped.args), note: note(true, `wrap: ${[entry.kind.command, ...entry.kind.args].join(' ')}`) };
    }
    case 'spied':
      return { edits: [], note: note(false, 'already runs mcp-spy: left as it is') };
    case 'url':
      return { edits: [], note: note(false, httpAdvice(entry.kind.url)) };
    case 'unknown':
      return { edits: [], note: note(false, `not a server entry mcp-spy can wrap (${entry.kind.why}): left as it is`) };
  }
}

/**
 * The wrap of one file, for the places of the table that are in it (Claude Code keeps two scopes in
 * ~/.claude.json). A file that does not parse, or whose servers are not an object, is refused whole.
 */
export function planWrap(text: string, places: readonly ConfigPlace[], choice: WrapChoice): { ok: true; plan: FilePlan } | { ok: false; why: string } {
  const syntax = (clients[places[0]!.client] as ClientFacts).syntax;
  const parsed = parseConfig(text, syntax);
  if (!parsed.ok) return parsed;
  const edits: Edit[] = [];
  const notes: EntryNote[] = [];
  const touched: { place: ConfigPlace; entry: ServerEntry }[] = [];
  for (const place of places) {
    const found = serverEntries(parsed.config, place.serversAt);
    if (!found.ok) return found;
    for (const entry of found.entries) {
      if (choice.servers.length > 0 && !choice.servers.includes(entry.name)) continue;
      const planned = planEntry(parsed.config, place, entry, choice);
      edits.push(...planned.edits);
      notes.push(planned.note);
      if (planned.edits.length > 0) touched.push({ place, entry });
    }
  }
  const after = applyEdits(text, edits);
  const reparsed = parseConfig(after, syntax);
  if (!reparsed.ok) return { ok: false, why: `mcp-spy made a config that does not parse (${reparsed.why}): nothing written` };
  const wrapped = touched.map(({ place, entry }) => ({
    path: entry.path,
    client: place.client,
    original: textOf(parsed.config, entry.node),
    wrapped: valueOf(nodeAt(reparsed.config, entry.path)!),
  }));
  return { ok: true, plan: { before: text, after, notes, wrapped } };
}
