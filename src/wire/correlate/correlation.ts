import type { JsonRpcId } from '../../protocol/jsonrpc.js';
import type { NoteId } from '../../protocol/notes.js';
import type { Direction, FrameKind } from '../classify/kinds.js';
import type { CallOrigin } from './round-trips.js';

// What the correlator and the tables it keeps (sent requests, the session watch) all speak of:
// here, so that each can import it without importing the correlator.

/** A request still waiting for its response. */
export interface PendingRequest {
  dir: Direction;
  id: JsonRpcId;
  method: string;
  tool?: string;
  seq: number;
  timeMs: number;
  /** Its progress token, when it asked for progress. */
  progressToken?: string | number;
  /** Its sender cancelled it: a response may still come, and none is owed. */
  cancelled?: boolean;
  /**
   * A server request the client closed its input on: sent after the close, or before it with nothing
   * from the client in between (which end the spy saw first is a race; the client left either way).
   */
  afterClientClosed?: boolean;
  /** A request of a multi-round-trip method: its method and what it is about, to link its rounds. */
  subject?: string;
  /** A retry of a multi-round-trip call: the call's first request, and this request's round. */
  origin?: CallOrigin;
}

/** What correlation adds to a classified frame. */
export interface Correlation {
  kind: FrameKind;
  method?: string;
  tool?: string;
  prompt?: string;
  uri?: string;
  latencyMs?: number;
  rev?: string;
  /**
   * For a response: the request's seq; for progress or cancellation: the request it is about; for the
   * retry of a multi-round-trip call: the call's first request. `round` (2, 3, ...) on a retry and on
   * the answer to it.
   */
  related?: { seq: number; id: JsonRpcId; method: string; tool?: string; round?: number };
  notes: NoteId[];
}
