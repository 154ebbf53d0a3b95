import type { JsonRpcId } from '../../protocol/jsonrpc.js';
import type { Correlator } from '../correlate/correlate.js';
import type { Direction } from '../classify/kinds.js';
import type { FrameBytes } from '../framing/frame-bytes.js';
import type { Secrets } from '../redact/redact-frame.js';

/** Fields of a record entry beside its envelope, named as the record names them. */
export type EntryFields = { [field: string]: unknown };

/** What the exchange stage reads back of a frame it handed on: its place in the record and what it is. */
export interface FrameReceipt {
  seq: number;
  kind: string;
  dir?: Direction;
  id?: JsonRpcId;
  method?: string;
}

/**
 * Where the HTTP exchange stage hands its frames and events: the pipeline that numbers, observes and
 * records them (on the observer thread). The stage itself writes nothing and keeps no record state.
 */
export interface ExchangeRecords {
  frame(session: string, dir: Direction, frame: FrameBytes, timeMs: number, fields?: EntryFields): FrameReceipt[];
  event(session: string | undefined, kind: 'http' | 'note', fields: EntryFields, timeMs?: number): unknown;
  correlator(session: string): Correlator;
  /** Ends a session: its pending requests are reported as unanswered. */
  endSession(session: string, timeMs?: number): void;
  /** Secrets met outside the frames (an OAuth token): masked wherever they turn up later. */
  secrets: Secrets;
}
