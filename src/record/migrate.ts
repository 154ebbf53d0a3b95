import { parseCut } from '../protocol/depth.js';
import { isFrameKind } from '../wire/classify/kinds.js';
import { rememberText } from './frame-message.js';
import { RECORD_VERSION } from './schema.js';

/**
 * A line as the file holds it, before it is brought up to this build's version and narrowed by
 * `kind` (reader.ts): an object with a version and a kind, and anything else.
 */
export interface LooseEntry {
  v: number;
  kind: string;
  [field: string]: unknown;
}

/**
 * Version 1 held every frame's text as the string `raw`; version 2 holds a frame that is JSON as
 * the object `msg` (its bytes spliced into the line). The text stays readable through `frameText`.
 */
function v1ToV2(entry: LooseEntry): LooseEntry {
  if (isFrameKind(entry.kind) && typeof entry.raw === 'string' && !entry.truncated) {
    try {
      const { value: msg, cut } = parseCut(entry.raw);
      if (cut) entry.notes = [...((entry.notes as string[] | undefined) ?? []), 'nested-too-deep'];
      else rememberText(entry, entry.raw);
      delete entry.raw;
      entry.msg = msg;
    } catch {
      // Not JSON: it stays `raw`, as in version 2.
    }
  }
  entry.v = 2;
  return entry;
}

/**
 * One step per older record version, turning an entry of version n into one of version n + 1.
 * Every reader (view, stats, check, replay, mock, the library) reads through these steps, so it
 * sees entries of the version this build writes whatever version the file holds.
 */
export const migrations: Readonly<Record<number, (entry: LooseEntry) => LooseEntry>> = { 1: v1ToV2 };

/** A version no step leads from: reading on would misread the entry. */
export class MissingMigrationError extends Error {}

/** Brings an entry of an older version up to the version this build writes. */
export function migrateEntry(entry: LooseEntry, steps = migrations): LooseEntry {
  let current = entry;
  while (current.v < RECORD_VERSION) {
    const step = steps[current.v];
    if (!step) throw new MissingMigrationError(`record version ${current.v} cannot be read: no step from it to version ${RECORD_VERSION}`);
    current = step(current);
  }
  return current;
}
