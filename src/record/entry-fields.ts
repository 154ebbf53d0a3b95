import type { RecordEntry } from './schema.js';

/**
 * When the entry happened, in milliseconds since the epoch; undefined when it carries no time a
 * reader can use (an imported plain capture has none). The one place an entry's `t` is parsed.
 */
export function entryTime(entry: RecordEntry): number | undefined {
  const at = typeof entry.t === 'string' ? Date.parse(entry.t) : Number.NaN;
  return Number.isNaN(at) ? undefined : at;
}

/** The rule ids an entry breaks (frames, notes, http and unanswered events carry them): none when it has no list. */
export function notesOf(entry: RecordEntry): readonly unknown[] {
  return 'notes' in entry && Array.isArray(entry.notes) ? entry.notes : [];
}

type KeysOfUnion<T> = T extends unknown ? keyof T : never;
type FieldOf<T, K extends PropertyKey> = T extends unknown ? (K extends keyof T ? T[K] : never) : never;
/** A field some kind of entry has. */
export type EntryField = KeysOfUnion<RecordEntry>;

/**
 * A field by name whatever the entry's kind, typed as the kinds that have it type it: for readers
 * that look at one field across kinds (a filter's `method` matches a frame's and a fault's alike).
 * Undefined on a kind without the field.
 */
export function fieldOf<K extends EntryField>(entry: RecordEntry, name: K): FieldOf<RecordEntry, K> | undefined {
  return (entry as Partial<Record<EntryField, unknown>>)[name] as FieldOf<RecordEntry, K> | undefined;
}
