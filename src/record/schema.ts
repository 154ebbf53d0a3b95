import type { z } from 'zod';
import type { FrameKind } from '../wire/classify/kinds.js';
import type {
  capturedEntry,
  exitEntry,
  faultEntry,
  frameEntry,
  gapEntry,
  httpEntry,
  interceptEntry,
  noteEntry,
  recordEntry,
  spawnEntry,
  stderrEntry,
  unansweredEntry,
} from './entry-schema.js';

/** The record format version this build writes; readers accept this and older. */
export const RECORD_VERSION = 2;

/**
 * Kinds of record entries that are not frames (the frame kinds are the wire's, in wire/kinds.ts).
 * The schema (entry-schema.ts) is built from these two lists; `KindsAgree` below fails to compile
 * if its union and the lists ever part.
 */
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
/** A frame captured but not analysed: a line of the file that readers turn into frame entries (record/captured.ts). */
export type CapturedEntry = z.infer<typeof capturedEntry>;

/**
 * One line of the record: exactly one of the kinds above, told apart by `kind`. The reader narrows
 * every line it reads into this once (see reader.ts); readers switch on `kind` (or `isFrameEntry`)
 * and then use the fields that kind has.
 */
export type RecordEntry = z.infer<typeof recordEntry>;
/** An entry that is not a frame. */
export type EventEntry = Exclude<RecordEntry, FrameEntry>;
/** The entry of one kind. */
export type EntryOf<K extends RecordEntry['kind']> = Extract<RecordEntry, { kind: K }>;
/** What every entry has, whatever its kind. */
export type Envelope = Pick<RecordEntry, 'v' | 'seq' | 't' | 'session'>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** True, or the build fails: the schema's kinds are exactly the frame kinds and the event kinds. */
export type KindsAgree = Same<RecordEntry['kind'], FrameKind | EventKind> extends true ? true : never;
export const kindsAgree: KindsAgree = true;

/** What a writer gives for an event of one of the kinds `K` (the envelope is the recorder's). */
export type EventFields<K extends EventKind> = Partial<EntryOf<K>>;
