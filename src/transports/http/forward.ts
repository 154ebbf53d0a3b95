import type { Agent, IncomingHttpHeaders, IncomingMessage, RequestOptions, ServerResponse } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createEndpointRewriter, type EndpointRewrite } from './endpoint-rewrite.js';
import { forwardableHeaders, headerText } from './headers.js';
import { gatewayError } from './gateway-error.js';

/** What the spy knows of an exchange when the client's request head arrives. */
export interface ExchangeStart {
  method: string;
  /** Path and query as forwarded (an absolute-form request target is reduced to these). */
  path: string;
  headers: IncomingHttpHeaders;
}

/** Why an exchange did not complete. `answered` is what the spy itself sent the client instead. */
export interface ExchangeFailure {
  stage: 'connect' | 'response' | 'client';
  message: string;
  answered?: { status: number; body: Buffer };
}

/**
 * The observing side of one exchange: sees copies of the bytes after they were forwarded. `timeMs`
 * (ms since the epoch) is when the spy forwarded them, which may be a moment before the call.
 */
export interface ExchangeObserver {
  requestChunk(chunk: Buffer, timeMs?: number): void;
  requestEnd(timeMs?: number): void;
  response(status: number, headers: IncomingHttpHeaders, timeMs?: number): void;
  /** The server's bytes, as the server sent them (before any endpoint rewrite). */
  responseChunk(chunk: Buffer, timeMs?: number): void;
  responseEnd(timeMs?: number): void;
  endpointRewritten(rewrite: EndpointRewrite): void;
  failed(failure: ExchangeFailure, timeMs?: number): void;
}

/** Why the spy itself closed the client's connection (it is stopping, a timeout), and what it answered. */
export type SpyClosed = Pick<ExchangeFailure, 'message' | 'answered'>;

export interface ForwardOptions {
  target: URL;
  agent: Agent;
  observe: (start: ExchangeStart) => ExchangeObserver;
  /** Set once the spy closes the connection itself: what ends then is not the client's doing. */
  closedBySpy: () => SpyClosed | undefined;
}

/** Only the path and query of the request target: the spy never forwards anywhere but the target. */
export function pathOf(requestTarget: string | undefined): string {
  if (requestTarget !== undefined && requestTarget.startsWith('/') && !requestTarget.startsWith('//')) return requestTarget;
  const url = new URL(requestTarget ?? '/', 'http://spy.invalid');
  return `${url.pathname}${url.search}`;
}

/** Pipes a readable into a writable, pausing the first while the second is full. */
function relay(chunk: Buffer, from: IncomingMessage, to: NodeJS.WritableStream) {
  if (chunk.length > 0 && !to.write(chunk)) {
    from.pause();
    to.once('drain', () => from.resume());
  }
}

/** Forwards one exchange to the target and back, streaming both ways, and tells the observer. */
export function forwardExchange(req: IncomingMessage, res: ServerResponse, options: ForwardOptions): void {
  const { target } = options;
  const path = pathOf(req.url);
  const method = req.method ?? 'GET';
  const observer = options.observe({ method, path, headers: req.headers });
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const upstream = send({
    protocol: target.protocol,
    hostname: target.hostname.replace(/^\[|\]$/g, ''),
    port: target.port || undefined,
    method,
    path,
    headers: forwardableHeaders(req.rawHeaders, target.host),
    setHost: false,
    agent: options.agent,
  } as unknown as RequestOptions);

  upstream.on('socket', (socket) => socket.setNoDelay(true));
  let requestEnded = false;
  // The request's first bytes, kept for a 502's JSON-RPC id: joined only if it comes to that.
  const requestHead: Buffer[] = [];
  let headLength = 0;
  let settled = false;

  req.on('data', (chunk: Buffer) => {
    if (!upstream.destroyed) relay(chunk, req, upstream);
    if (headLength < 65536) {
      requestHead.push(chunk);
      headLength += chunk.length;
    }
    observer.requestChunk(chunk);
  });
  req.on('end', () => {
    requestEnded = true;
    upstream.end();
    observer.requestEnd();
  });

  upstream.on('response', (upRes) => {
    const status = upRes.statusCode ?? 502;
    const streams = headerText(upRes.headers, 'content-type')?.includes('text/event-stream') === true;
    const rewriter = method === 'GET' && streams && upRes.headers['content-length'] === undefined
      ? createEndpointRewriter(target.origin, `http://${req.headers.host ?? target.host}`, (rewrite) => observer.endpointRewritten(rewrite))
      : undefined;
    res.writeHead(status, upRes.statusMessage, forwardableHeaders(upRes.rawHeaders));
    // A stream's head must reach the client now, even if no event follows for a while; when its
    // first bytes are already here, they carry the head with them in one write.
    if (streams) setImmediate(() => res.headersSent || res.destroyed || res.flushHeaders());
    observer.response(status, upRes.headers);
    upRes.on('data', (chunk: Buffer) => {
      relay(rewriter ? rewriter.push(chunk) : chunk, upRes, res);
      observer.responseChunk(chunk);
    });
    upRes.on('end', () => {
      settled = true;
      if (rewriter) res.write(rewriter.flush());
      res.end();
      observer.responseEnd();
    });
    upRes.on('error', () => {});
    upRes.on('close', () => {
      if (settled || upRes.complete) return;
      settled = true;
      res.destroy();
      observer.failed({ stage: 'response', message: options.closedBySpy()?.message ?? 'the server closed the connection before the response ended' });
    });
  });

  upstream.on('error', (error: NodeJS.ErrnoException) => {
    if (settled) return;
    settled = true;
    if (res.headersSent) {
      res.destroy();
      observer.failed({ stage: 'response', message: options.closedBySpy()?.message ?? `the server connection failed: ${error.code ?? error.message}` });
      return;
    }
    const message = `cannot reach ${target.origin}: ${error.code ?? error.message}`;
    const answer = () => {
      const body = gatewayError(Buffer.concat(requestHead), message);
      res.writeHead(502, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
      observer.failed({ stage: 'connect', message, answered: { status: 502, body } });
    };
    if (requestEnded) answer();
    else {
      req.once('end', answer);
      req.resume();
    }
  });

  res.on('close', () => {
    if (settled || res.writableFinished) return;
    settled = true;
    upstream.destroy();
    observer.failed({ stage: 'client', message: 'the client closed the connection before the response ended', ...options.closedBySpy() });
  });
}
