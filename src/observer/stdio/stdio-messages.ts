import type { EventFields, FrameEntry } from '../../record/schema.js';
import type { ObserverOutputs } from '../observer-outputs.js';
import type { SpillPlace } from '../channel/spill.js';

/** The streams of a stdio spy the observer frames: the two directions and the server's stderr. */
export type StdioStream = 'c2s' | 's2c' | 'stderr';

/** When the observer captures whole lines rather than analyse them (see `StdioObserverConfig.capture`). */
export const captureModes = ['pressed', 'always', 'never'] as const;
export type CaptureMode = (typeof captureModes)[number];

/** What the observer needs to know to record one stdio session. */
export interface StdioObserverConfig extends ObserverOutputs {
  session: string;
  /**
   * When whole lines are captured rather than analysed (--capture): `pressed`, when the observer is
   * pressed for time (far behind the traffic, or finishing out of time), and from then on in that
   * session; `always`; `never` (fault rules and --intercept mark frames, and the exports, --otlp and
   * --metrics, need each frame's analysis), as when it is left out.
   */
  capture?: CaptureMode;
}

/** Messages from the forwarding thread to the observer, sent in batches. `t` is when it was seen. */
export type StdioMessage =
  | { type: 'chunk'; stream: StdioStream; t: number; data: Uint8Array }
  /** Bytes of a direction the observer had no room for, in the spill: read back and captured when their turn comes. */
  | { type: 'spilled'; stream: 'c2s' | 's2c'; t: number; spilled: SpillPlace }
  | { type: 'lost'; stream: StdioStream; t: number; bytes: number }
  | { type: 'skip'; stream: StdioStream; bytes: number; lastByte: number }
  | { type: 'end'; stream: StdioStream; t: number }
  | {
      type: 'event';
      kind: 'spawn' | 'exit' | 'note' | 'fault' | 'intercept';
      t: number;
      fields: EventFields<'spawn' | 'exit' | 'note' | 'fault' | 'intercept'>;
    }
  /** Fields for the next frame of the stream (a fault rule's marks): sent just before that frame's line. */
  | { type: 'mark'; stream: 'c2s' | 's2c'; fields: Partial<FrameEntry> };
