import type { HeaderBag } from './mcp-headers.js';

/** What the spy knows of an exchange when the client's request head arrives. */
export interface ExchangeStart {
  method: string;
  /** Path and query as the client sent them (an absolute-form request target is reduced to these). */
  path: string;
  headers: HeaderBag;
  /** The exchange's number in this run of the spy: its frames and its http event carry it as `exchange`. */
  x?: number;
  /** Only with fault rules: fields the exchange's frames carry (`fault`, `origin: "spy"`), request and response apart. */
  marks?: ExchangeMarks;
}

/** Fields a fault rule writes on a frame (`fault`, `origin: "spy"`, `original`). */
export interface FrameMark {
  [field: string]: unknown;
}

/** What a fault rule did to an exchange, written on its frames as the stdio spy writes it on lines. */
export interface ExchangeMarks {
  request?: FrameMark;
  response?: FrameMark;
}

/** Why an exchange did not complete. `answered` is what the spy itself sent the client instead. */
export interface ExchangeFailure {
  stage: 'connect' | 'response' | 'client' | 'refused';
  message: string;
  answered?: { status: number; body: Buffer };
}

/** What was rewritten: the server's endpoint and what the client was given instead. */
export interface EndpointRewrite {
  from: string;
  to: string;
}

/** One value the spy changed on its way (authorization): where, what the sender said, and what the receiver got. */
export interface AuthRewrite {
  at: 'www-authenticate' | 'location' | 'metadata' | 'query' | 'form';
  from: string;
  to: string;
}

/**
 * The HTTP transport's tap on one exchange: the calls that tell of its bytes after they were
 * forwarded, its head, its end or failure, and what the spy rewrote on the way. `timeMs`
 * (ms since the epoch) is when the spy forwarded them, which may be a moment before the call.
 */
export interface ExchangeTap {
  requestChunk(chunk: Buffer, timeMs?: number): void;
  requestEnd(timeMs?: number): void;
  response(status: number, headers: HeaderBag, timeMs?: number): void;
  /**
   * The server's bytes, as the server sent them (before any endpoint rewrite). `mark` (only from a
   * fault rule that reshapes an answer): fields for the frames these bytes complete, as delivered.
   */
  responseChunk(chunk: Buffer, timeMs?: number, mark?: FrameMark): void;
  responseEnd(timeMs?: number): void;
  endpointRewritten(rewrite: EndpointRewrite): void;
  /** A URL moved between the server's origin and the spy's for authorization (before its bytes pass). */
  authRewritten(rewrite: AuthRewrite): void;
  failed(failure: ExchangeFailure, timeMs?: number): void;
  /**
   * With --lossless, while the recorder cannot take more: the transport reads no more of the body
   * until this resolves. Undefined when there is room (and always without --lossless).
   */
  roomFor?(): Promise<void> | undefined;
}

/** A tap on an exchange nobody records: each call does nothing. */
export const ignoreExchange: ExchangeTap = {
  requestChunk: () => {},
  requestEnd: () => {},
  response: () => {},
  responseChunk: () => {},
  responseEnd: () => {},
  endpointRewritten: () => {},
  authRewritten: () => {},
  failed: () => {},
};

/** Only the path and query of the request target: the spy never forwards anywhere but the target. */
export function pathOf(requestTarget: string | undefined): string {
  if (requestTarget?.startsWith('/') && !requestTarget.startsWith('//')) return requestTarget;
  const url = new URL(requestTarget ?? '/', 'http://spy.invalid');
  return `${url.pathname}${url.search}`;
}

/** The path of a request target without its query. */
export function pathOnly(target: string): string {
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}
