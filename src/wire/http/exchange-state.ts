import type { BodyCollector } from '../framing/body-collector.js';
import type { FrameBytes } from '../framing/frame-bytes.js';
import type { SseFramer } from '../framing/sse-framer.js';
import type { FrameReceipt } from './exchange-records.js';
import { looksLikeJsonRpc, readBody, type OtherBody } from './http-bodies.js';

/**
 * Where the request stands: its body arriving; whole (its session not known yet, so not recorded);
 * recorded. `frame` is the body when it is a frame, `other` when it is a body to describe instead.
 */
export type RequestState =
  | { step: 'arriving'; body?: BodyCollector }
  | { step: 'whole'; endMs: number; frame?: FrameBytes; other?: OtherBody }
  | { step: 'recorded'; frame?: FrameBytes; other?: OtherBody; entries?: FrameReceipt[] };

/**
 * Where the response stands: awaited (no head yet); a body, collected to its end (`framed` when it
 * is a frame); an SSE stream whose http event waits for a session (`stream-unplaced`, a legacy GET
 * stream until its endpoint event), a stream whose http event is said, or a legacy stream that
 * opened its session with its endpoint event (the session ends with it).
 */
export type ResponseState =
  | { step: 'awaited' }
  | { step: 'body'; framed: boolean; body?: BodyCollector }
  | { step: 'stream-unplaced' | 'stream' | 'legacy-stream'; framer: SseFramer };

/**
 * The request once its body is whole: an MCP exchange's body is a frame whatever it holds; another's
 * is a frame when it reads as JSON-RPC, and otherwise a body to describe.
 */
export function wholeRequest(body: FrameBytes | undefined, mcp: boolean, contentType: string | undefined, endMs: number): RequestState {
  if (mcp || !body) return { step: 'whole', endMs, frame: body };
  const read = readBody(body.bytes, contentType);
  return !body.truncated && looksLikeJsonRpc(read.json) ? { step: 'whole', endMs, frame: body } : { step: 'whole', endMs, other: read };
}

/** Whether a request (of an exchange not sent to the MCP path) proved a frame: once whole, it reads as JSON-RPC. */
export function requestIsFrame(request: RequestState): boolean {
  return request.step !== 'arriving' && request.frame !== undefined;
}

/** The request's body when it is not a frame: described in the http event. */
export function otherRequestOf(request: RequestState): OtherBody | undefined {
  return request.step === 'arriving' ? undefined : request.other;
}

/** The entries the request's frame became, once recorded. */
export function requestEntriesOf(request: RequestState): FrameReceipt[] {
  return (request.step === 'recorded' && request.entries) || [];
}
