import { createHash } from 'node:crypto';

/** A W3C trace context a client put in `params._meta` (traceparent, tracestate). */
export interface RemoteParent {
  traceId: string;
  spanId: string;
  traceState?: string;
  sampled: boolean;
}

const traceparentPattern = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * The W3C `traceparent` (and `tracestate`) of a request's `params._meta`, as the OpenTelemetry MCP
 * conventions propagate them; undefined when absent or malformed (version ff, all-zero ids).
 */
export function remoteParentOf(message: unknown): RemoteParent | undefined {
  const meta = (message as { params?: { _meta?: Record<string, unknown> } } | undefined)?.params?._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const traceparent = Object.hasOwn(meta, 'traceparent') ? meta.traceparent : undefined;
  if (typeof traceparent !== 'string') return undefined;
  const match = traceparentPattern.exec(traceparent.trim().toLowerCase());
  if (!match || match[1] === 'ff' || /^0+$/.test(match[2]!) || /^0+$/.test(match[3]!)) return undefined;
  const parent: RemoteParent = { traceId: match[2]!, spanId: match[3]!, sampled: (parseInt(match[4]!, 16) & 1) === 1 };
  const tracestate = Object.hasOwn(meta, 'tracestate') ? meta.tracestate : undefined;
  if (typeof tracestate === 'string' && tracestate.length <= 512) parent.traceState = tracestate;
  return parent;
}

function hexOf(text: string, length: number): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

/**
 * Ids drawn from the record itself (the session and when it began, an entry's seq): the same
 * recording exported twice, or live and after the fact, gives the same trace and span ids.
 */
export function traceIdOf(sessionKey: string): string {
  return hexOf(`trace\u0000${sessionKey}`, 32);
}

export function spanIdOf(sessionKey: string, seq: number | 'session'): string {
  return hexOf(`span\u0000${sessionKey}\u0000${seq}`, 16);
}
