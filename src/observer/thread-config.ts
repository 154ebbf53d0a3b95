import type { ToolPins } from '../wire/correlate/tool-pin.js';
import type { SinkOutputs } from '../sinks/sink.js';
import type { HttpObserverConfig } from './http/messages.js';
import type { StdioObserverConfig } from './stdio/messages.js';

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

/** The observer thread's start-up data: which spy it observes for, and that spy's config. */
export type ThreadConfig = ({ kind: 'stdio' } & StdioObserverConfig) | ({ kind: 'http' } & HttpObserverConfig);
