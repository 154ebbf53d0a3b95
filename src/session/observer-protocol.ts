import type { IncomingHttpHeaders } from 'node:http';
import type { ExportConfig } from '../export/export-sink.js';
import type { RecordEntry } from '../record/schema.js';
import type { ToolPins } from '../wire/tool-pin.js';
import type { AuthRewrite, EndpointRewrite } from '../transports/http-proxy.js';

/** Where and how the observer writes: the record, the log, the live view on stderr. */
export interface ObserverOutputs {
  recordPath?: string;
  logPath?: string;
  /** Whether the user named the path (it may then be a link, a FIFO or a device) or it is a default. */
  recordNamed?: boolean;
  logNamed?: boolean;
  live: boolean;
  color: boolean;
  /** The terminal's width when stderr is one: each live line fits it. */
  liveWidth?: number;
  maxFrame: number;
  /** JSONPaths (--redact) masked in every frame before it is written. */
  redactPaths?: string[];
  /** Pinned tool definitions (--baseline): a listed tool that differs is noted on its frame. */
  pins?: ToolPins;
  /** --otlp, --metrics: the OpenTelemetry exports, run on the observer thread. */
  export?: ExportConfig;
}

/** The streams of a stdio spy the observer frames: the two directions and the server's stderr. */
export type StdioStream = 'c2s' | 's2c' | 'stderr';

/** What the observer needs to know to record one stdio session. */
export interface ObserverConfig extends ObserverOutputs {
  session: string;
}

/** What the observer needs to know to record the exchanges of an HTTP spy. */
export interface HttpObserverConfig extends ObserverOutputs {
  redactHeaders: string[];
  /** Whether secrets in headers and in OAuth bodies are masked (false with --no-redact). */
  redact: boolean;
  /** The target's path: what is posted there is MCP, whatever it looks like. */
  mcpPath: string;
}

/**
 * Shared between the two threads without a message: [0] the time (epoch ms) by which the observer
 * must have finished, 0 while there is none; [1] the last `seq` the observer wrote.
 */
export const controlSlots = { deadline: 0, seq: 1 } as const;

/** The worker's start-up data: which spy it observes for, that spy's config, and the shared control. */
export type WorkerConfig = (({ kind: 'stdio' } & ObserverConfig) | ({ kind: 'http' } & HttpObserverConfig)) & { control?: SharedArrayBuffer };

/** Messages from the forwarding thread to the observer, sent in batches. `t` is when it was seen. */
export type ObserverMessage =
  | { type: 'chunk'; stream: StdioStream; t: number; data: Uint8Array }
  | { type: 'lost'; stream: StdioStream; t: number; bytes: number }
  | { type: 'skip'; stream: StdioStream; bytes: number; lastByte: number }
  | { type: 'end'; stream: StdioStream; t: number }
  | { type: 'event'; kind: 'spawn' | 'exit' | 'note'; t: number; fields: Partial<RecordEntry> };

/** A failure as it crosses threads: an answer's body arrives as a Uint8Array. */
export interface FailureMessage {
  stage: 'connect' | 'response' | 'client' | 'refused';
  message: string;
  answered?: { status: number; body: Uint8Array };
}

/** The HTTP spy's messages: each names its exchange by `x`, a number the forwarding side gives. */
export type HttpMessage =
  | { type: 'open'; x: number; method: string; path: string; headers: IncomingHttpHeaders }
  | { type: 'request-chunk'; x: number; t: number; data: Uint8Array }
  | { type: 'request-end'; x: number; t: number }
  | { type: 'response'; x: number; t: number; status: number; headers: IncomingHttpHeaders }
  | { type: 'response-chunk'; x: number; t: number; data: Uint8Array }
  | { type: 'response-end'; x: number; t: number }
  | { type: 'rewrite'; x: number; rewrite: EndpointRewrite }
  | { type: 'auth-rewrite'; x: number; rewrite: AuthRewrite }
  | { type: 'failed'; x: number; t: number; failure: FailureMessage }
  /** The exchange's bytes outran the observer: it is a gap in the record, not half an exchange. */
  | { type: 'lost'; x: number; t: number; bytes: number }
  | { type: 'event'; kind: 'http' | 'spawn' | 'exit'; t: number; fields: Partial<RecordEntry> }
  /** The proxy stopped: every open session ends (its pending requests become `unanswered`). */
  | { type: 'stopped' };

/** Every batch may end with this: write everything out, then say `closed`. */
export type FinishMessage = { type: 'finish' };

/** Messages back: bytes observed (so the forwarder knows how far behind it is), and the end. */
export type ObserverReply = { type: 'ack'; bytes: number } | { type: 'closed' };
