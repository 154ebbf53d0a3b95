import type { RecordEntry } from '../record/schema.js';
import { isFrameEntry } from '../record/frame-message.js';
import type { Effect } from './console-actions.js';
import { parseFilter } from '../review/filter-expression.js';
import { IndexList } from './index-list.js';
import { EntryLog, indexedFields } from './log.js';
import { answerKinds, sessionKey, type Row, type SourceEntry } from './rows.js';
import { learnSession, newSession, type SessionInfo } from './sessions.js';
import type { HeldItem } from './held-types.js';

export type Screen = 'sessions' | 'frames' | 'inspector' | 'tools' | 'help' | 'held';
export type Pane = 'request' | 'answer';

/** Reads a row's whole entry again (from its file); undefined when it cannot. */
export type EntryLoader = (row: Row) => RecordEntry | undefined;

/** The filter in force: its text, and the test it compiled to (none: everything), of an entry of the log. */
export interface FilterState {
  source: string;
  test?: (log: EntryLog, index: number) => boolean;
}

/**
 * The console's whole state. The log, the sessions and `visible` only grow and are shared by
 * successive states (a flood of frames must not copy them on every batch); everything else is new
 * in each state the reducer returns.
 */
export interface ViewState {
  log: EntryLog;
  /** Entries are kept whole (less their frames) rather than read again: there is no loader. */
  keepEntries: boolean;
  sessions: SessionInfo[];
  sessionIndex: Map<string, SessionInfo>;
  /** Requests not answered yet, by session and seq, to pair their answers. */
  requests: Map<string, Map<number, number>>;
  screen: Screen;
  /** Where Esc goes back to from help. */
  previous: Screen;
  /** One session's frames, or (undefined) every session's merged. */
  scope?: string;
  filter: FilterState;
  /** The filter being typed, with what is wrong with it so far. */
  editing?: { text: string; error?: string };
  /** Indexes into the log of the rows the stream shows, in order. */
  visible: IndexList;
  /** How many rows of the log `visible` has looked at: a paused stream stops there. */
  shown: number;
  cursor: number;
  sessionCursor: number;
  /** The inspector's and the tools summary's scroll. */
  scroll: number;
  follow: boolean;
  paused: boolean;
  pane: Pane;
  /** The inspector shows long strings and arrays whole (z). */
  unfolded: boolean;
  width: number;
  height: number;
  status?: string;
  /** Where the sessions are read from, for people (the sessions directory, or the paths named). */
  where?: string;
  /** Frames spies hold (--intercept), oldest first, and the one under the held screen's cursor. */
  held: HeldItem[];
  heldCursor: number;
  /** An effect a key asked for, for the app to do once (serial tells two presses apart). */
  effect?: { name: Effect; serial: number };
  load: EntryLoader;
}

export interface StateOptions {
  filter?: string;
  where?: string;
  load?: EntryLoader;
  width?: number;
  height?: number;
}

/** The state before any entry came; a bad --filter is the caller's to refuse (see `compileFilter`). */
export function initialState(options: StateOptions = {}): ViewState {
  const load = options.load ?? (() => undefined);
  const compiled = compileFilter(options.filter ?? '', load);
  return {
    log: new EntryLog(),
    keepEntries: options.load === undefined,
    sessions: [],
    sessionIndex: new Map(),
    requests: new Map(),
    screen: 'sessions',
    previous: 'sessions',
    filter: compiled.ok ? compiled.filter : { source: '' },
    visible: new IndexList(),
    shown: 0,
    cursor: 0,
    sessionCursor: 0,
    scroll: 0,
    follow: true,
    paused: false,
    pane: 'request',
    unfolded: false,
    held: [],
    heldCursor: 0,
    width: options.width ?? 80,
    height: options.height ?? 24,
    load,
    where: options.where,
  };
}

/**
 * A filter expression as the stream applies it: on what the log's index holds, and on the entry read
 * again from its file (the loader reads ahead, so a scan reads the file in chunks) when the filter
 * looks at a field the index does not hold (`text`, `id`, `note`...), or the index holds it inexactly.
 */
export function compileFilter(source: string, load: EntryLoader): { ok: true; filter: FilterState } | { ok: false; message: string } {
  if (source.trim() === '') return { ok: true, filter: { source: '' } };
  const parsed = parseFilter(source);
  if (!parsed.ok) return { ok: false, message: parsed.message };
  const needsText = /\btext\b/i.test(source);
  // One view of one reused object for the whole scan: it notes a read of a field the index lacks.
  const scratch: Record<string, unknown> = {};
  let missed = false;
  let currentLog: EntryLog | undefined;
  let currentIndex = 0;
  const view = new Proxy(scratch, {
    get: (target, key) => {
      if (typeof key === 'string' && !indexedFields.has(key)) missed = true;
      // The time's text is made only for a filter that reads it.
      if (key === 't' && currentLog) return currentLog.time(currentIndex);
      return target[key as string];
    },
    has: (target, key) => {
      if (typeof key === 'string' && !indexedFields.has(key)) missed = true;
      return key in target;
    },
  }) as unknown as RecordEntry;
  const test = (log: EntryLog, index: number): boolean => {
    const kept = log.keptEntry(index);
    if (kept) return parsed.test(needsText ? (load(log.place(index)) ?? kept) : kept);
    if (log.isExact(index)) {
      log.brief(index, scratch, false);
      currentLog = log;
      currentIndex = index;
      missed = false;
      const result = parsed.test(view);
      if (!missed) return result;
    }
    const place = log.place(index);
    return parsed.test(load(place) ?? place.entry);
  };
  return { ok: true, filter: { source, test } };
}

export { answerKinds };

/** Adds entries to the log: sessions appear, answers find their requests. Mutates the shared parts. */
export function ingest(state: ViewState, items: readonly SourceEntry[]): ViewState {
  let sessions = state.sessions;
  for (const item of items) {
    const key = sessionKey(item.file, item.entry);
    let session = state.sessionIndex.get(key);
    if (!session) {
      session = newSession(key, item);
      state.sessionIndex.set(key, session);
      sessions = [...sessions, session];
    }
    learnSession(session, item);
    const slot = state.log.slot(key, session.file, session.id);
    const index = state.log.append(slot, item.entry, item, state.keepEntries);
    pair(state, key, index, item.entry);
  }
  const next = { ...state, sessions };
  return state.paused ? next : extendVisible(next);
}

/** Pairs an answer with its request, by the `related` of the whole entry (the log keeps no answer's link). */
function pair(state: ViewState, session: string, index: number, entry: RecordEntry): void {
  if (!isFrameEntry(entry)) return;
  let pending = state.requests.get(session);
  if (!pending) state.requests.set(session, (pending = new Map()));
  if (entry.kind === 'request' && entry.related === undefined) pending.set(entry.seq, index);
  if (answerKinds.has(entry.kind) && entry.related) {
    const request = pending.get(entry.related.seq);
    if (request === undefined) return;
    // Answered: the request is not waited for any more, and the answer's link is the pair.
    pending.delete(entry.related.seq);
    state.log.setPair(index, request);
    state.log.setPair(request, index);
  }
}

/** Whether the stream shows an entry of the log: in scope, not routine, and through the filter. */
export function showsRow(state: ViewState, index: number): boolean {
  if (state.scope !== undefined && state.log.sessionKey(index) !== state.scope) return false;
  if (state.log.isRoutine(index)) return false;
  return state.filter.test === undefined || state.filter.test(state.log, index);
}

/** Looks at the rows added since `shown`; following, the cursor goes to the newest. */
export function extendVisible(state: ViewState): ViewState {
  for (let index = state.shown; index < state.log.length; index++) if (showsRow(state, index)) state.visible.push(index);
  const next = { ...state, shown: state.log.length };
  return next.follow ? { ...next, cursor: Math.max(0, next.visible.length - 1) } : next;
}

/** Builds `visible` again (the scope or the filter changed), keeping the cursor on its row if it is still shown. */
export function rebuildVisible(state: ViewState): ViewState {
  const current = state.visible.at(state.cursor);
  const next = extendVisible({ ...state, visible: new IndexList(), shown: 0 });
  if (next.follow || current === undefined) return next;
  const at = next.visible.firstFrom(current);
  return { ...next, cursor: at === -1 ? Math.max(0, next.visible.length - 1) : at };
}

/** The row under the cursor. */
export function selectedRow(state: ViewState): Row | undefined {
  const index = state.visible.at(state.cursor);
  return index === undefined ? undefined : state.log.row(index, state.load);
}

/** Rows of the body: the screen less its title, its column heads and its status line. */
export function bodyHeight(state: ViewState): number {
  return Math.max(1, state.height - 4);
}
