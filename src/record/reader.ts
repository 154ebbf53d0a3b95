import { cutDeep, maxDepth, tooShortToNest } from '../protocol/depth.js';
import { isFrameKind } from '../wire/classify/kinds.js';
import { analyseAlone, type LineEntry } from './captured.js';
import { rememberLine } from './frame-message.js';
import { type LooseEntry, MissingMigrationError, migrateEntry } from './migrate.js';
import { eventKinds, RECORD_VERSION, type RecordEntry } from './schema.js';

/** A record that cannot be read at all (missing, unreadable, from a newer mcp-spy). */
export class RecordReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecordReadError';
  }
}

/** The one line for a file that cannot be opened. */
export function openFailure(path: string, error: unknown): RecordReadError {
  return new RecordReadError(`cannot read ${path}: ${readFailureWords(error) ?? (error as Error).message}`);
}

const readFailures = new Map([
  ['ENOENT', 'no such file'],
  ['EACCES', 'permission denied'],
  ['EISDIR', 'is a directory'],
]);

/** Why a file could not be read, in words, for the reasons users meet; undefined for the others. */
export function readFailureWords(error: unknown): string | undefined {
  return readFailures.get((error as NodeJS.ErrnoException).code ?? '');
}

export type ReadItem = { ok: true; lineNo: number; entry: RecordEntry } | { ok: false; lineNo: number; reason: string; line: string; unknownKind?: true };

/** A line of the file read as it is written: an entry, or a frame captured and not analysed yet. */
export type LineItem = { ok: true; lineNo: number; entry: LineEntry } | { ok: false; lineNo: number; reason: string; line: string };

/**
 * Parses one line of a record. A newer version is fatal: guessing at it could mislead. A captured
 * frame is analysed on its own (no request to pair it with): readers of a whole record analyse it
 * in its place instead (see open-recording.ts).
 */
export function parseRecordLine(line: string, lineNo: number, source = 'record'): ReadItem {
  const item = readRecordLine(line, lineNo, source);
  if (item.ok && item.entry.kind === 'captured') {
    const entry = analyseAlone(item.entry, line);
    return entry ? { ok: true, lineNo, entry } : { ok: false, lineNo, reason: 'where the client closed its input (no entry of its own)', line };
  }
  return item as ReadItem;
}

/** Parses one line of a record as it is written, a captured frame left as it is. */
export function readRecordLine(line: string, lineNo: number, source = 'record'): LineItem {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, lineNo, reason: 'not JSON', line };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, lineNo, reason: 'not a record entry', line };
  const deep = !tooShortToNest(line) && cutEntry(value as LooseEntry);
  const entry = (deep || value) as LooseEntry;
  if (typeof entry.v !== 'number' || typeof entry.kind !== 'string') return { ok: false, lineNo, reason: 'not a record entry (no v or kind)', line };
  if (entry.v > RECORD_VERSION) {
    throw new RecordReadError(`${source}:${lineNo}: record version ${entry.v} is newer than this mcp-spy reads (${RECORD_VERSION}); upgrade mcp-spy`);
  }
  const written = entry.v;
  let migrated: LooseEntry;
  try {
    migrated = migrateEntry(entry);
  } catch (error) {
    if (error instanceof MissingMigrationError) throw new RecordReadError(`${source}:${lineNo}: ${error.message}`);
    throw error;
  }
  const current = narrowEntry(migrated);
  if (typeof current === 'string')
    return {
      ok: false,
      lineNo,
      reason: `not a record entry (${current})`,
      line,
      ...(eventKindSet.has(String(migrated.kind)) || isFrameKind(migrated.kind) ? {} : { unknownKind: true as const }),
    };
  // A cut frame's text is its cut message: the line's would crash whoever walks it.
  if (written === RECORD_VERSION && !deep && current.kind !== 'captured') rememberLine(current, line);
  return { ok: true, lineNo, entry: current };
}

const eventKindSet: ReadonlySet<string> = new Set(eventKinds);

/**
 * The line as the one kind of entry it says it is, or why it is none: the only place a reader's
 * entry gets its type. Only `kind` (and a frame's direction, which says which side spoke) is looked
 * at; the other fields are taken as written, so readers still look before they use a field a
 * hand-written line may hold in another shape.
 */
export function narrowEntry(entry: LooseEntry): LineEntry | string {
  if (isFrameKind(entry.kind) || entry.kind === 'captured') {
    return entry.dir === 'c2s' || entry.dir === 's2c' ? (entry as unknown as RecordEntry) : `a ${entry.kind} without dir`;
  }
  return eventKindSet.has(entry.kind) ? (entry as unknown as RecordEntry) : `unknown kind ${JSON.stringify(entry.kind)}`;
}

/**
 * An entry nested deeper than every reader may walk (a frame of 5,000 levels, recorded by an older
 * mcp-spy or written by hand), cut at the depth the live spy records (see protocol/depth), with the
 * note it would have had; false when it is not that deep.
 */
function cutEntry(entry: LooseEntry): LooseEntry | false {
  // The entry is one level above its `msg`.
  const cut = cutDeep(entry, maxDepth + 1) as LooseEntry;
  if (cut === entry) return false;
  const notes = cut.notes as string[] | undefined;
  if (isFrameKind(cut.kind) && !notes?.includes('nested-too-deep')) cut.notes = [...(notes ?? []), 'nested-too-deep'];
  return cut;
}
