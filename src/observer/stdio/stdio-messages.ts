import type { EventFields, FrameEntry } from '../../record/schema.js';
import type { ObserverOutputs } from '../observer-outputs.js';

/** The streams of a stdio spy the observer frames: the two directions and the server's stderr. */
export type StdioStream = 'c2s' | 's2c' | 'stderr';

/** What the observer needs to know to record one stdio session. */
export interface StdioObserverConfig extends ObserverOutputs {
  session: string;
}

/** Messages from the forwarding thread to the observer, sent in batches. `t` is when it was seen. */
export type StdioMessage =
  | { type: 'chunk'; stream: StdioStream; t: number; data: Uint8Array }
  | { type: 'lost'; stream: StdioStream; t: number; bytes: number }
  | { type: 'skip'; stream: StdioStream; bytes: number; lastByte: number }
  | { type: 'end'; stream: StdioStream; t: number }
  | { type: 'event'; kind: 'spawn' | 'exit' | 'note' | 'fault'; t: number; fields: EventFields<'spawn' | 'exit' | 'note' | 'fault'> }
  /** Fields for the next frame of the stream (a fault rule's marks): sent just before that frame's line. */
  | { type: 'mark'; stream: 'c2s' | 's2c'; fields: Partial<FrameEntry> };
