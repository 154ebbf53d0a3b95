import type { EventFields } from '../../record/schema.js';
import type { AuthRewrite, EndpointRewrite, ExchangeFailure, ExchangeMarks, FrameMark } from '../../wire/http/exchange-tap.js';
import type { HeaderBag } from '../../wire/http/mcp-headers.js';
import type { ObserverOutputs } from '../observer-outputs.js';

/** What the observer needs to know to record the exchanges of an HTTP spy. */
export interface HttpObserverConfig extends ObserverOutputs {
  redactHeaders: string[];
  /** Whether secrets in headers and in OAuth bodies are masked (false with --no-redact). */
  redact: boolean;
  /** The target's path: what is posted there is MCP, whatever it looks like. */
  mcpPath: string;
}

/** A failure as it crosses threads: an answer's body arrives as a Uint8Array. */
export type FailureMessage = Omit<ExchangeFailure, 'answered'> & { answered?: { status: number; body: Uint8Array } };

/**
 * The HTTP spy's messages: each names its exchange by `x`, a number the forwarding side gives.
 * The end of a request or a response rides on the exchange's message before it, as `end` (when
 * it ended), when that message has not gone over yet: a stateless exchange is four messages, not six.
 */
export type HttpMessage =
  | { type: 'open'; x: number; method: string; path: string; headers: HeaderBag; marks?: ExchangeMarks; end?: number }
  | { type: 'request-chunk'; x: number; t: number; data: Uint8Array; end?: number }
  | { type: 'request-end'; x: number; t: number }
  | { type: 'response'; x: number; t: number; status: number; headers: HeaderBag; end?: number }
  | { type: 'response-chunk'; x: number; t: number; data: Uint8Array; end?: number; mark?: FrameMark }
  | { type: 'response-end'; x: number; t: number }
  | { type: 'rewrite'; x: number; rewrite: EndpointRewrite }
  | { type: 'auth-rewrite'; x: number; rewrite: AuthRewrite }
  | { type: 'failed'; x: number; t: number; failure: FailureMessage }
  /**
   * The exchange's bytes outran the observer: the rest of it is a gap in the record, not half an
   * exchange. `request` and `response` are the body bytes of each side not handed over.
   */
  | { type: 'lost'; x: number; t: number; request: number; response: number }
  | {
      type: 'event';
      kind: 'http' | 'spawn' | 'exit' | 'fault' | 'intercept';
      t: number;
      fields: EventFields<'http' | 'spawn' | 'exit' | 'fault' | 'intercept'>;
    }
  /** The proxy stopped: every open session ends (its pending requests become `unanswered`). */
  | { type: 'stopped' };
