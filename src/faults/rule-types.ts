// A fault rule as the spy holds it once read: what it matches, when it fires, and what it does.

/** What a frame must be for a rule to consider it: every named field must match (values may hold `*`). */
export interface FaultMatch {
  /** A method, or `*` for any frame that has one. */
  method: string;
  tool?: string;
  prompt?: string;
  uri?: string;
  dir?: 'c2s' | 's2c';
}

/** When a matching frame is faulted: counted per rule over its matching frames (the first is 1). */
export interface FaultWhen {
  nth?: number;
  after?: number;
  every?: number;
  /** Probability, drawn from the seeded generator only once the counts agree. */
  p?: number;
}

export type CorruptMode = 'invalid-json' | 'cut' | 'wrong-id';
export type NoiseStream = 'stdout' | 'stderr';

/**
 * What a rule does. The spy answers in the server's (or client's) place for error, tool-error, drop and
 * timeout; on HTTP, slow-stream, cut-stream, corrupt and noise pass the request on and reshape its answer.
 */
export type FaultAction =
  | { name: 'delay'; ms: number; jitterMs: number }
  | { name: 'error'; code: number; message: string }
  | { name: 'tool-error'; text: string }
  | { name: 'drop' }
  | { name: 'timeout' }
  | { name: 'corrupt'; mode: CorruptMode }
  | { name: 'disconnect' }
  | { name: 'noise'; stream: NoiseStream; text: string }
  | { name: 'status'; status: number; retryAfter?: number }
  | { name: 'slow-stream'; ms: number }
  | { name: 'cut-stream'; messages: number }
  | { name: 'expire-session' };

export type ActionName = FaultAction['name'];

export interface FaultRule {
  /** The rule as the user wrote it (or as a file entry reads back): the record names it so. */
  text: string;
  match: FaultMatch;
  when: FaultWhen;
  action: FaultAction;
}

/** A rule that could not be read: one line that says where and what. */
export interface RuleProblem {
  problem: string;
}
