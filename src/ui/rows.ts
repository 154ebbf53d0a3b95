import type { RecordEntry } from '../record/schema.js';

/** An entry as a source hands it over: the whole entry, and where its line is in its file. */
export interface SourceEntry {
  file: string;
  entry: RecordEntry;
  lineNo: number;
  /** Where the line starts in the file, and its size: the console reads it again from there. */
  offset?: number;
  length?: number;
}

/**
 * One entry as a screen shows it, made from the log's index (see log.ts) for the rows on screen:
 * the entry without its message and its texts (read again from the file when opened).
 */
export interface Row {
  /** Its place in the log, which only grows. */
  index: number;
  /** The session it belongs to (see `sessionKey`). */
  session: string;
  file: string;
  offset?: number;
  length?: number;
  entry: RecordEntry;
  /** A request's answer, an answer's request: the other row's index, once both were seen. */
  pair?: number;
}

/** The kinds that answer a request. */
export const answerKinds: ReadonlySet<string> = new Set(['response', 'tool-error', 'protocol-error']);

/** The fields left out of a row's entry: the frame itself, which can be megabytes, and what no screen reads. */
const heavy = new Set(['v', 'msg', 'raw', 'rawBase64', 'headers', 'body', 'requestBody', 'unread', 'sse', 'challenge', 'rewrites']);

/** A stderr line is shown in the stream: its first characters are kept. */
const keptText = 500;

/** Fields whose few values repeat on every row: one string each, shared. */
const repeated = new Set(['kind', 'dir', 'method', 'tool', 'rev', 'session', 'errorName', 'prompt', 'uri']);
const interned = new Map<string, string>();
const intern = (value: unknown): unknown => {
  if (typeof value !== 'string' || value.length > 200) return value;
  let shared = interned.get(value);
  if (shared === undefined) {
    // A bound on the table: values past it (ids of a hostile peer) are kept as they are.
    if (interned.size >= 100_000) return value;
    interned.set(value, (shared = value));
  }
  return shared;
};

/**
 * The entry without its heavy fields (a stderr line keeps its start), its repeated strings shared.
 */
export function lightEntry(entry: RecordEntry): RecordEntry {
  const light: Record<string, unknown> = {};
  // An answer's request is its pair (see the reducer): the link is not kept twice.
  const answer = answerKinds.has(entry.kind);
  for (const key of Object.keys(entry)) {
    if (heavy.has(key) || (answer && key === 'related')) continue;
    const value = (entry as Record<string, unknown>)[key];
    light[key] = repeated.has(key) ? intern(value) : value;
  }
  if (entry.kind === 'stderr' && typeof entry.raw === 'string') light.raw = entry.raw.slice(0, keptText);
  // A frame edited at the intercept keeps its original beside it: the row needs to know only that it has one.
  if ('original' in entry && typeof entry.original === 'string') light.original = entry.original.slice(0, keptText);
  return light as RecordEntry;
}

/** Sessions are told apart by file and session id: several spies may append to one file. */
export function sessionKey(file: string, entry: RecordEntry): string {
  return `${file}\u0000${typeof entry.session === 'string' ? entry.session : ''}`;
}

/** The UTF-8 size of a value as JSON: what it costs a model's context. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}
