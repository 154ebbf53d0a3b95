import { entryTime, fieldOf } from '../record/entry-fields.js';
import type { RecordEntry } from '../record/schema.js';
import { isRoutine } from '../render/visibility.js';
import { Chunk, chunkBits, chunkSize, getNarrow, none, partial, relatedRequest, routine, setNarrow } from './log-chunk.js';
import { lightEntry, type Row } from './rows.js';

/**
 * The console's log: every entry read, as a compact index of typed-array columns (under 40 bytes an
 * entry, whatever the size of its frame). A row is made from it only for what a screen shows (its
 * entry read again from its file); what the index holds answers filters and the tools summary.
 */

/** Strings kept in the index (methods, tools, kinds): each once; a hostile peer's many names stop at a bound. */
const maxStrings = 0xffff;
const maxString = 200;
const dirs = ['', 'c2s', 's2c'];

/** The fields of an entry the index holds: a filter naming only these runs without reading the file. */
export const indexedFields: ReadonlySet<string> = new Set(['seq', 't', 'kind', 'dir', 'method', 'tool', 'latencyMs', 'bytes', 'session']);

export interface LogSession {
  key: string;
  file: string;
  /** The record's session id. */
  id?: string;
  /** The time of its first entry, which the times of its entries count from. */
  base?: number;
}

export class EntryLog {
  private chunks: Chunk[] = [];
  private strings: string[] = [''];
  private stringIds = new Map<string, number>();
  private kinds: string[] = [''];
  private kindIds = new Map<string, number>();
  /** Entries kept whole (less their frame): those with no file to read them again from. */
  private kept = new Map<number, RecordEntry>();
  /** Entries read again lately, for the rows on screen (a redraw reads no file). */
  private recent = new Map<number, RecordEntry>();
  readonly sessions: LogSession[] = [];
  private slots = new Map<string, number>();
  private overflow = new Map<number, number>();
  /** Sizes too large for their 16-bit columns, by entry: lines, frames. */
  private longLines = new Map<number, number>();
  private largeFrames = new Map<number, number>();
  length = 0;

  /** A session's place in `sessions`, added when it is new. */
  slot(key: string, file: string, id: string | undefined): number {
    let slot = this.slots.get(key);
    if (slot === undefined) {
      this.slots.set(key, (slot = this.sessions.length));
      this.sessions.push({ key, file, id });
    }
    return slot;
  }

  /** The entry kept whole (less its frame), when it was. */
  keptEntry(index: number): RecordEntry | undefined {
    return this.kept.get(index);
  }

  /** The key of an entry's session. */
  sessionKey(index: number): string {
    return this.sessions[this.session(index)]!.key;
  }

  private id(value: unknown): { id: number; exact: boolean } {
    if (value === undefined) return { id: 0, exact: true };
    if (typeof value !== 'string' || value.length > maxString) return { id: 0, exact: false };
    let id = this.stringIds.get(value);
    if (id === undefined) {
      if (this.strings.length >= maxStrings) return { id: 0, exact: false };
      this.stringIds.set(value, (id = this.strings.length));
      this.strings.push(value);
    }
    return { id, exact: true };
  }

  private kindId(kind: unknown): number {
    if (typeof kind !== 'string') return 0;
    let id = this.kindIds.get(kind);
    if (id === undefined && this.kinds.length < 255 && kind.length <= maxString) {
      this.kindIds.set(kind, (id = this.kinds.length));
      this.kinds.push(kind);
    }
    return id ?? 0;
  }

  /** Adds an entry of a session (an index into `sessions`); `keep` keeps it whole (no file holds it). */
  append(session: number, entry: RecordEntry, where: { offset?: number; length?: number }, keep: boolean): number {
    const index = this.length;
    if ((index & (chunkSize - 1)) === 0) this.chunks.push(new Chunk());
    const chunk = this.chunks[index >>> chunkBits]!;
    const at = index & (chunkSize - 1);
    let exact = true;
    const fit = (value: unknown, scale: number, column: Uint32Array) => {
      if (value === undefined) return;
      const scaled = typeof value === 'number' ? Math.round(value * scale) : NaN;
      if (scaled >= 0 && scaled < none && scaled / scale === value) column[at] = scaled;
      else exact = false;
    };
    if (where.offset !== undefined && where.length !== undefined && where.offset < 2 ** 40 && where.length < none) {
      chunk.offsetLow[at] = where.offset % 2 ** 32;
      chunk.offsetHigh[at] = Math.floor(where.offset / 2 ** 32);
      setNarrow(chunk.length, at, where.length, this.longLines, index);
    } else keep = true;
    fit(entry.seq, 1, chunk.seq);
    const owner = this.sessions[session]!;
    const time = entryTime(entry);
    if (time !== undefined) owner.base ??= time;
    // A time kept only if it reads back as it was written (the spy writes ISO times in milliseconds).
    if (entry.t !== undefined && (time === undefined || new Date(time).toISOString() !== entry.t)) exact = false;
    else if (time !== undefined) fit(time - owner.base!, 1, chunk.time);
    fit(fieldOf(entry, 'latencyMs'), 1000, chunk.latency);
    const bytes = fieldOf(entry, 'bytes');
    if (typeof bytes === 'number' && Number.isSafeInteger(bytes) && bytes >= 0) setNarrow(chunk.bytes, at, bytes, this.largeFrames, index);
    else if (bytes !== undefined) exact = false;
    chunk.session[at] = Math.min(session, 0xffff);
    if (session >= 0xffff) this.overflow.set(index, session);
    const method = this.id(fieldOf(entry, 'method'));
    const tool = this.id(fieldOf(entry, 'tool'));
    chunk.method[at] = method.id;
    chunk.tool[at] = tool.id;
    chunk.kind[at] = this.kindId(entry.kind);
    const dir = dirs.indexOf(fieldOf(entry, 'dir') ?? '');
    chunk.dir[at] = Math.max(0, dir);
    const sessionId = typeof entry.session === 'string' ? entry.session : undefined;
    if (!method.exact || !tool.exact || dir === -1 || chunk.kind[at] === 0 || sessionId !== owner.id) exact = false;
    chunk.flags[at] = (isRoutine(entry) ? routine : 0) | (entry.kind === 'request' && entry.related !== undefined ? relatedRequest : 0) | (exact ? 0 : partial);
    if (keep) this.kept.set(index, lightEntry(entry));
    this.length++;
    return index;
  }

  private chunk(index: number): [Chunk, number] {
    return [this.chunks[index >>> chunkBits]!, index & (chunkSize - 1)];
  }

  setPair(index: number, other: number): void {
    const [chunk, at] = this.chunk(index);
    chunk.pair[at] = other;
  }

  pair(index: number): number | undefined {
    const [chunk, at] = this.chunk(index);
    return chunk.pair[at] === -1 ? undefined : chunk.pair[at];
  }

  session(index: number): number {
    const [chunk, at] = this.chunk(index);
    const slot = chunk.session[at]!;
    return slot === 0xffff ? this.overflow.get(index)! : slot;
  }

  kind(index: number): string {
    const [chunk, at] = this.chunk(index);
    return this.kinds[chunk.kind[at]!]!;
  }

  isRoutine(index: number): boolean {
    const [chunk, at] = this.chunk(index);
    return (chunk.flags[at]! & routine) !== 0;
  }

  /** A call of its own: a request no other request caused. */
  isCall(index: number): boolean {
    const [chunk, at] = this.chunk(index);
    return this.kinds[chunk.kind[at]!] === 'request' && (chunk.flags[at]! & relatedRequest) === 0;
  }

  /** Whether the index holds this entry's indexed fields exactly. */
  isExact(index: number): boolean {
    const [chunk, at] = this.chunk(index);
    return (chunk.flags[at]! & partial) === 0 || this.kept.has(index);
  }

  /**
   * The indexed fields of an entry, written into `into` (reused: a scan over millions of entries
   * makes no object per entry). What the index does not hold is absent.
   */
  brief(index: number, into: Record<string, unknown> = {}, withTime = true): RecordEntry {
    const kept = this.kept.get(index);
    if (kept) return kept;
    const [chunk, at] = this.chunk(index);
    const owner = this.sessions[this.session(index)]!;
    const latency = chunk.latency[at]!;
    const bytes = getNarrow(chunk.bytes, at, this.largeFrames, index);
    into.seq = chunk.seq[at];
    // (Making the time's text costs more than the rest: a scan that does not look at it goes without.)
    into.t = withTime ? this.time(index) : undefined;
    into.kind = this.kinds[chunk.kind[at]!];
    into.dir = dirs[chunk.dir[at]!] || undefined;
    into.method = this.strings[chunk.method[at]!] || undefined;
    into.tool = this.strings[chunk.tool[at]!] || undefined;
    into.latencyMs = latency === none ? undefined : latency / 1000;
    into.bytes = bytes;
    into.session = owner.id;
    return into as unknown as RecordEntry;
  }

  /** An entry's time, as the record wrote it. */
  time(index: number): string | undefined {
    const [chunk, at] = this.chunk(index);
    const base = this.sessions[this.session(index)]!.base;
    const time = chunk.time[at]!;
    return time === none || base === undefined ? undefined : new Date(base + time).toISOString();
  }

  /** Where an entry's line is, without its entry: for reading it again, or exporting it as it is. */
  place(index: number): Row {
    const [chunk, at] = this.chunk(index);
    const owner = this.sessions[this.session(index)]!;
    const high = chunk.offsetHigh[at]!;
    const kept = this.kept.get(index);
    return {
      index,
      session: owner.key,
      file: owner.file,
      offset: high === 0xff ? undefined : high * 2 ** 32 + chunk.offsetLow[at]!,
      length: high === 0xff ? undefined : getNarrow(chunk.length, at, this.longLines, index),
      entry: kept ?? this.brief(index),
      pair: this.pair(index),
    };
  }

  /** A row as the screens show it: its entry (less its frame) read again from its file, else what the index holds. */
  row(index: number, load: (row: Row) => RecordEntry | undefined): Row {
    const row = this.place(index);
    if (this.kept.has(index)) return row;
    let entry = this.recent.get(index);
    if (entry === undefined) {
      const full = load(row);
      if (full === undefined) return row;
      entry = lightEntry(full);
      // A few screens' worth: the oldest read goes first.
      if (this.recent.size >= 1024) this.recent.delete(this.recent.keys().next().value!);
      this.recent.set(index, entry);
    }
    return { ...row, entry };
  }
}
