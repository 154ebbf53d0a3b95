import type { z } from 'zod';
import type { exitEntry, faultEntry, frameEntry, interceptEntry, gapEntry, httpEntry, noteEntry, recordEntry, spawnEntry, stderrEntry, unansweredEntry } from './entry-schema.js';

/** The record format version this build writes; readers accept this and older. */
export const RECORD_VERSION = 2;

/** Kinds of record entries that are not frames. */
export const eventKinds = ['spawn', 'exit', 'stderr', 'gap', 'unanswered', 'http', 'note', 'fault', 'intercept'] as const;
export type EventKind = (typeof eventKinds)[number];

// One line of the record (wire.jsonl), a union by `kind`: the types come from the one definition
// in entry-schema.ts, which docs/record.schema.json is generated from.
export type FrameEntry = z.infer<typeof frameEntry>;
export type SpawnEntry = z.infer<typeof spawnEntry>;
export type ExitEntry = z.infer<typeof exitEntry>;
export type StderrEntry = z.infer<typeof stderrEntry>;
export type GapEntry = z.infer<typeof gapEntry>;
export type UnansweredEntry = z.infer<typeof unansweredEntry>;
export type HttpEntry = z.infer<typeof httpEntry>;
export type NoteEntry = z.infer<typeof noteEntry>;
export type FaultEntry = z.infer<typeof faultEntry>;
export type InterceptEntry = z.infer<typeof interceptEntry>;
/** An entry as the spy writes it: exactly one of the kinds above. */
export type WrittenEntry = z.infer<typeof recordEntry>;

type KeysOfUnion<T> = T extends unknown ? keyof T : never;
type FieldOf<T, K extends PropertyKey> = T extends unknown ? (K extends keyof T ? Exclude<T[K], undefined> : never) : never;

/**
 * An entry as a reader holds it: every field of every kind, each optional and typed as the
 * definition types it (a file may hold anything, so readers look before they use). No other field.
 */
export type RecordEntry = { v: number; seq: number; t: string; kind: WrittenEntry['kind'] } & {
  [K in Exclude<KeysOfUnion<WrittenEntry>, 'v' | 'seq' | 't' | 'kind'>]?: FieldOf<WrittenEntry, K>;
};
