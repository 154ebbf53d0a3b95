import { cutDeep, maxDepth, tooShortToNest } from '../protocol/depth.js';
import { isFrameEntry, rememberLine } from './frame-message.js';
import { MissingMigrationError, migrateEntry } from './migrate.js';
import { RECORD_VERSION, type RecordEntry } from './schema.js';

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

export type ReadItem =
  | { ok: true; lineNo: number; entry: RecordEntry }
  | { ok: false; lineNo: number; reason: string; line: string };

/** Parses one line of a record. A newer version is fatal: guessing at it could mislead. */
export function parseRecordLine(line: string, lineNo: number, source = 'record'): ReadItem {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, lineNo, reason: 'not JSON', line };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, lineNo, reason: 'not a record entry', line };
  const deep = !tooShortToNest(line) && cutEntry(value as RecordEntry);
  const entry = (deep || value) as RecordEntry;
  if (typeof entry.v !== 'number' || typeof entry.kind !== 'string') return { ok: false, lineNo, reason: 'not a record entry (no v or kind)', line };
  if (entry.v > RECORD_VERSION) {
    throw new RecordReadError(
      `${source}:${lineNo}: record version ${entry.v} is newer than this mcp-spy reads (${RECORD_VERSION}); upgrade mcp-spy`,
    );
  }
  const written = entry.v;
  let current: RecordEntry;
  try {
    current = migrateEntry(entry);
  } catch (error) {
    if (error instanceof MissingMigrationError) throw new RecordReadError(`${source}:${lineNo}: ${error.message}`);
    throw error;
  }
  // A cut frame's text is its cut message: the line's would crash whoever walks it.
  if (written === RECORD_VERSION && !deep) rememberLine(current, line);
  return { ok: true, lineNo, entry: current };
}

/**
 * An entry nested deeper than every reader may walk (a frame of 5,000 levels, recorded by an older
 * mcp-spy or written by hand), cut at the depth the live spy records (see protocol/depth), with the
 * note it would have had; false when it is not that deep.
 */
function cutEntry(entry: RecordEntry): RecordEntry | false {
  // The entry is one level above its `msg`.
  const cut = cutDeep(entry, maxDepth + 1) as RecordEntry;
  if (cut === entry) return false;
  if (isFrameEntry(cut) && !cut.notes?.includes('nested-too-deep')) cut.notes = [...(cut.notes ?? []), 'nested-too-deep'];
  return cut;
}
