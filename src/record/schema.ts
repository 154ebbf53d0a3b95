import type { FrameObservation } from '../wire/observe.js';

/** The record format version this build writes; readers accept this and older. */
export const RECORD_VERSION = 2;

/** Kinds of record entries that are not frames. */
export const eventKinds = ['spawn', 'exit', 'stderr', 'gap', 'unanswered', 'http', 'note'] as const;
export type EventKind = (typeof eventKinds)[number];

/**
 * One line of the record (wire.jsonl). The field names are a public contract: add, never rename.
 * Frames carry the FrameObservation fields; events carry the fields of their kind.
 */
export interface RecordEntry extends Omit<Partial<FrameObservation>, 'kind'> {
  v: number;
  seq: number;
  /** ISO 8601 UTC with milliseconds. */
  t: string;
  kind: FrameObservation['kind'] | EventKind;
  session?: string;
  /** spawn: the server command line, its pid and working directory, and the spy's version. */
  command?: string[];
  pid?: number;
  cwd?: string;
  spy?: string;
  transport?: 'stdio' | 'http';
  /** exit: the server's exit code or the signal that ended it. */
  code?: number | null;
  signal?: string | null;
  /** gap: what the spy lost and why. */
  reason?: string;
  lost?: number;
  /** unanswered: requests still pending when the session ended. */
  requests?: { seq: number; dir: string; id: unknown; method: string; tool?: string }[];
  /** Event kinds of later issues add their own fields. */
  [field: string]: unknown;
}
