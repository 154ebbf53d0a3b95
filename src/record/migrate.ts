import { RECORD_VERSION, type RecordEntry } from './schema.js';

/**
 * One step per older record version, turning an entry of version n into one of version n + 1.
 * Version 1 is the first, so the table is empty; a later version adds its step here, and every
 * reader (view, stats, check, replay) keeps reading old records unchanged.
 */
export const migrations: Readonly<Record<number, (entry: RecordEntry) => RecordEntry>> = {};

/** Brings an entry of an older version up to the version this build writes. */
export function migrateEntry(entry: RecordEntry, steps = migrations): RecordEntry {
  let current = entry;
  while (current.v < RECORD_VERSION) {
    const step = steps[current.v];
    if (!step) break;
    current = step(current);
  }
  return current;
}
