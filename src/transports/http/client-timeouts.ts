import type { ServerOptions } from 'node:http';

/**
 * How long the spy waits on a client, in ms. None of them runs while a response is on its way:
 * an SSE stream may stay silent for hours, and the spy waits as long as the server does.
 */
export interface ClientTimeouts {
  /** From the connection opening (or a later request's first byte) to the end of the request head. */
  headersMs: number;
  /** From a request's first byte to the end of its body; 0: no limit. */
  requestMs: number;
  /** Between a response's end and the next request's first byte on the same connection. */
  keepAliveMs: number;
}

/** Node's own defaults for an HTTP server. */
export const defaultClientTimeouts: ClientTimeouts = { headersMs: 60_000, requestMs: 300_000, keepAliveMs: 5_000 };

/**
 * The server options that enforce them. The head is part of the request, so a shorter request
 * timeout bounds it too. Node checks the first two on a timer (30 s by default); a tenth of the
 * shorter one keeps a timeout from firing more than 10% late.
 */
export function serverTimeoutOptions(timeouts: ClientTimeouts): ServerOptions {
  const headersTimeout = timeouts.requestMs > 0 ? Math.min(timeouts.headersMs, timeouts.requestMs) : timeouts.headersMs;
  return {
    headersTimeout,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionsCheckingInterval: Math.min(5_000, Math.max(50, Math.round(headersTimeout / 10))),
  };
}

/** What Node itself answers a client error with, before closing the connection. */
const clientErrorStatus: Record<string, string> = {
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
};

/** The bytes of the spy's answer to a client error (a timeout, a malformed or oversized head). */
export function clientErrorAnswer(code: string | undefined): { status: number; bytes: string } {
  const status = clientErrorStatus[code ?? ''] ?? '400 Bad Request';
  return { status: Number(status.slice(0, 3)), bytes: `HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n` };
}

/** The record's reason when the request timeout ends an exchange whose body was still coming. */
export function requestTimeoutReason(timeouts: ClientTimeouts): string {
  return `the client had not sent its whole request after ${timeouts.requestMs / 1000}s (request timeout); the spy closed the connection`;
}
