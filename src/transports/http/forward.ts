import type { Agent, IncomingMessage, RequestOptions, ServerResponse } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import {
  challengedMetadataPath,
  isDiscoveryPath,
  originsOf,
  rewriteRequestPath,
  rewriteResponseHeaders,
  type AuthRewrite,
  type Origins,
} from './auth-rewrite.js';
import { createEndpointRewriter } from './endpoint-rewrite.js';
import { createMetadataHolder, isHeldForm, rewriteForm, withContentLength } from './held-body.js';
import { forwardableHeaders, headerText, streamConnection } from './headers.js';
import { gatewayError } from './gateway-error.js';
import { drained, holdReading } from '../read-gate.js';
import { pathOf, type ExchangeFailure, type ExchangeMarks, type ExchangeTap, type ExchangeStart } from '../../wire/http/exchange-tap.js';

export { pathOf, type ExchangeFailure, type ExchangeMarks, type ExchangeTap, type ExchangeStart };

/** Why the spy itself closed the client's connection (it is stopping, a timeout), and what it answered. */
export type SpyClosed = Pick<ExchangeFailure, 'message' | 'answered'>;

export interface ForwardOptions {
  target: URL;
  agent: Agent;
  tapExchange: (start: ExchangeStart) => ExchangeTap;
  /** Set once the spy closes the connection itself: what ends then is not the client's doing. */
  closedBySpy: () => SpyClosed | undefined;
  /** What the spy learns of the server's authorization, shared by all exchanges. */
  auth: AuthLearnt;
}

/** Paths of the target that challenges named as protected-resource metadata; the origin the server calls itself by. */
export interface AuthLearnt {
  metadataPaths: Set<string>;
  serverOrigin?: string;
}

/** Pipes a readable into a writable, pausing the first while the second is full. */
function relay(chunk: Buffer, from: IncomingMessage, to: NodeJS.WritableStream) {
  if (chunk.length > 0 && !to.write(chunk)) holdReading(from, drained(to));
}

/** With --lossless, stops reading a body while the recorder has no room for more. */
function waitForRecord(from: IncomingMessage, tap: ExchangeTap) {
  const room = tap.roomFor?.();
  if (room) holdReading(from, room);
}

/** What an exchange needs once its request head is read. */
interface ExchangeContext {
  path: string;
  method: string;
  tap: ExchangeTap;
  origins: Origins;
  note: (rewrite: AuthRewrite) => void;
}

/**
 * Forwards one exchange to the target and back, streaming both ways, and tells the tap.
 * `held`: the request body, already read whole (by a fault rule's hook): sent as it is; `marks`: what
 * that rule writes on the exchange's frames.
 */
export function forwardExchange(req: IncomingMessage, res: ServerResponse, options: ForwardOptions, held?: Buffer, marks?: ExchangeMarks): void {
  const path = pathOf(req.url);
  const method = req.method ?? 'GET';
  const tap = options.tapExchange(marks ? { method, path, headers: req.headers, marks } : { method, path, headers: req.headers });
  const origins = originsOf(options.target, req.headers.host ?? options.target.host, options.auth.serverOrigin);
  const note = (rewrite: AuthRewrite) => {
    if (rewrite.at === 'metadata' && URL.canParse(rewrite.from)) options.auth.serverOrigin = new URL(rewrite.from).origin;
    tap.authRewritten(rewrite);
  };
  const context = { path, method, tap, origins, note };
  if (held) {
    tap.requestChunk(held);
    tap.requestEnd();
    return relayExchange(req, res, options, context, isHeldForm(method, req.headers) ? rewriteForm(held, origins, context.note) : held);
  }
  if (!isHeldForm(method, req.headers)) return relayExchange(req, res, options, context);
  // A form's new length must be in its head: it is read whole before anything goes to the server.
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    tap.requestChunk(chunk);
    waitForRecord(req, tap);
  });
  req.on('end', () => {
    tap.requestEnd();
    relayExchange(req, res, options, context, rewriteForm(Buffer.concat(chunks), origins, context.note));
  });
  req.on(
    'close',
    () => req.complete || tap.failed({ stage: 'client', message: 'the client closed the connection before its request ended', ...options.closedBySpy() }),
  );
}

/** Forwards the exchange; `held` is the request body when it was read whole (and the tap told) already. */
function relayExchange(req: IncomingMessage, res: ServerResponse, options: ForwardOptions, context: ExchangeContext, held?: Buffer): void {
  const { target } = options;
  const { path, method, tap, origins, note } = context;
  const head = forwardableHeaders(req.rawHeaders, target.host);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const upstream = send({
    protocol: target.protocol,
    hostname: target.hostname.replace(/^\[|\]$/g, ''),
    port: target.port || undefined,
    method,
    path: rewriteRequestPath(path, origins, note),
    headers: held ? withContentLength(head, held.length) : head,
    setHost: false,
    agent: options.agent,
  } as unknown as RequestOptions);

  // Every header line of the response, not Node's first 2000 (see the server's maxHeadersCount).
  upstream.maxHeadersCount = 0;
  upstream.on('socket', (socket) => socket.setNoDelay(true));
  let requestEnded = held !== undefined;
  // The request's first bytes, kept for a 502's JSON-RPC id: joined only if it comes to that.
  const requestHead: Buffer[] = held ? [held] : [];
  let headLength = 0;
  let settled = false;

  // A held request has ended already: the listeners below never fire for it.
  if (held) upstream.end(held);
  req.on('data', (chunk: Buffer) => {
    if (!upstream.destroyed) relay(chunk, req, upstream);
    if (headLength < 65536) {
      requestHead.push(chunk);
      headLength += chunk.length;
    }
    tap.requestChunk(chunk);
    waitForRecord(req, tap);
  });
  let endTold = false;
  const tellEnd = () => {
    if (!endTold) tap.requestEnd();
    endTold = true;
  };
  req.on('end', () => {
    requestEnded = true;
    upstream.end();
    tellEnd();
  });

  upstream.on('response', (upRes) => {
    // The server may answer a request whose `end` waits for the record (--lossless holds its
    // reading, and a body with a length is whole without it): once every byte of it has been
    // handed over, its end goes first, so the tap never sees an answer before its request.
    if (!requestEnded && req.complete && req.readableLength === 0) tellEnd();
    const status = upRes.statusCode ?? 502;
    const streams = headerText(upRes.headers, 'content-type')?.includes('text/event-stream') === true;
    const rewriter =
      method === 'GET' && streams && upRes.headers['content-length'] === undefined
        ? createEndpointRewriter(target.origin, `http://${req.headers.host ?? target.host}`, (rewrite) => tap.endpointRewritten(rewrite))
        : undefined;
    const headers = forwardableHeaders(rewriteResponseHeaders(upRes.rawHeaders, origins, note));
    if (streams) headers.push(...streamConnection(upRes.rawHeaders, req.headers));
    // Discovery metadata is held to its end when its URLs may need to name the spy.
    const named = challengedMetadataPath(headerText(upRes.headers, 'www-authenticate') ?? '', origins);
    if (named !== undefined && options.auth.metadataPaths.size < 1000) options.auth.metadataPaths.add(named);
    const discovery = isDiscoveryPath(path) || options.auth.metadataPaths.has(path);
    const metadata = createMetadataHolder(discovery, upRes, headers, origins, note, (sent) => res.writeHead(status, upRes.statusMessage, sent));
    if (!metadata) res.writeHead(status, upRes.statusMessage, headers);
    // A stream's head must reach the client now, even if no event follows for a while; when its
    // first bytes are already here, they carry the head with them in one write. (`headersSent` is
    // true from writeHead on, sent or not: what was written is what tells.)
    let written = false;
    if (streams) setImmediate(() => written || res.destroyed || res.flushHeaders());
    tap.response(status, upRes.headers);
    upRes.on('data', (chunk: Buffer) => {
      const out = rewriter ? rewriter.push(chunk) : metadata ? metadata.push(chunk) : chunk;
      written ||= out.length > 0;
      relay(out, upRes, res);
      tap.responseChunk(chunk);
      waitForRecord(upRes, tap);
    });
    upRes.on('end', () => {
      settled = true;
      if (rewriter) res.write(rewriter.flush());
      res.end(metadata?.flush());
      tap.responseEnd();
    });
    upRes.on('error', () => {});
    upRes.on('close', () => {
      if (settled || upRes.complete) return;
      settled = true;
      res.destroy();
      tap.failed({ stage: 'response', message: options.closedBySpy()?.message ?? 'the server closed the connection before the response ended' });
    });
  });

  upstream.on('error', (error: NodeJS.ErrnoException) => {
    if (settled) return;
    settled = true;
    if (res.headersSent) {
      res.destroy();
      tap.failed({ stage: 'response', message: options.closedBySpy()?.message ?? `the server connection failed: ${error.code ?? error.message}` });
      return;
    }
    const message = `cannot reach ${target.origin}: ${error.code ?? error.message}`;
    const answer = () => {
      const body = gatewayError(Buffer.concat(requestHead), message);
      res.writeHead(502, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
      tap.failed({ stage: 'connect', message, answered: { status: 502, body } });
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
    tap.failed({ stage: 'client', message: 'the client closed the connection before the response ended', ...options.closedBySpy() });
  });
}
