import type { ToolPins } from '../wire/correlate/tool-pin.js';
import type { SinkOutputs } from '../sinks/sink.js';

/** Where and how the observer writes (the record, the log, the live view), and how it reads frames. */
export interface ObserverOutputs extends SinkOutputs {
  maxFrame: number;
  /** JSONPaths (--redact) masked in every frame before it is written. */
  redactPaths?: string[];
  /** Whether members with a secret's name are masked in every frame (false with --no-default-redact). */
  redactNames?: boolean;
  /** Pinned tool definitions (--baseline): a listed tool that differs is noted on its frame. */
  pins?: ToolPins;
}
