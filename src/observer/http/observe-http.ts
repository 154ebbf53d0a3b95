import { createExchangeSessions } from '../../wire/http/exchange-sessions.js';
import { observeExchange, type ObservedExchange } from '../../wire/http/http-exchange.js';
import type { StatusTexts } from '../../wire/http/http-summary.js';
import { createHeaderRedactor } from '../../wire/http/redact-headers.js';
import { causeInWords } from '../channel/finish-cause.js';
import type { Recorder } from '../recorder.js';
import type { HttpMessage, HttpObserverConfig } from './http-messages.js';

/** The sides of an exchange in the record's words: its request's body goes c2s, its response's s2c. */
const streams = ['c2s', 's2c'] as const;

const bufferOf = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength);

/**
 * The observer thread's side of the HTTP spy: each exchange the forwarding side announces is
 * observed into the record, one session per Mcp-Session-Id, legacy endpoint, or stateless exchange.
 * `cause` says what cut the finishing short, once it has been (--drain-timeout, or a stop signal).
 */
export function observeHttp(
  config: HttpObserverConfig,
  recorder: Recorder,
  statusTexts: StatusTexts,
  warn?: (message: string) => void,
  cause: () => string = () => '--drain-timeout',
) {
  const sessions = createExchangeSessions(recorder);
  const learn = config.redact ? recorder.secrets.learn : undefined;
  const redact = createHeaderRedactor(config.redactHeaders, config.redact, learn);
  const deps = { records: recorder, sessions, maxFrame: config.maxFrame, redact, statusTexts, mcpPath: config.mcpPath, learn, warn };
  const exchanges = new Map<number, ObservedExchange>();
  const of = (x: number) => exchanges.get(x);
  /**
   * Body bytes of requests (c2s) and responses (s2c) given to the recorder in ended exchanges or
   * gaps (what the record accounts for), and those of each open exchange, handed over so far.
   */
  const recorded = [0, 0];
  const held = new Map<number, [number, number]>();
  const hold = (x: number, side: 0 | 1, data: Uint8Array) => {
    const bytes = held.get(x) ?? [0, 0];
    bytes[side] += data.byteLength;
    held.set(x, bytes);
  };
  const settle = (x: number) => {
    const bytes = held.get(x) ?? [0, 0];
    recorded[0]! += bytes[0];
    recorded[1]! += bytes[1];
    held.delete(x);
  };
  const responseEnd = (x: number, t: number) => {
    of(x)?.responseEnd(t);
    exchanges.delete(x);
    settle(x);
  };
  /**
   * An exchange that ends here unfinished: what of its bodies no entry stands for, by side (of
   * those handed over, and all those `more` that were not), for its gaps to count; the rest is in
   * its entries already.
   */
  const forget = (x: number, more = { request: 0, response: 0 }): [number, number] => {
    const [request, response] = held.get(x) ?? [0, 0];
    const left = exchanges.get(x)?.unrecorded(request) ?? { request, response };
    exchanges.delete(x);
    held.delete(x);
    recorded[0]! += request - left.request;
    recorded[1]! += response - left.response;
    return [left.request + more.request, left.response + more.response];
  };
  /** One gap for each side with bytes no entry stands for: from here on the record accounts for them. */
  const gaps = (lost: readonly number[], fields: { reason: string; httpMethod?: string; path?: string }, t?: number) => {
    streams.forEach((stream, side) => {
      if (lost[side]! <= 0) return;
      recorder.event(undefined, 'gap', { ...fields, stream, lost: lost[side]! }, t);
      recorded[side]! += lost[side]!;
    });
  };

  const handlers: { [K in HttpMessage['type']]: (message: Extract<HttpMessage, { type: K }>) => void } = {
    open: (m) => {
      const exchange = observeExchange(m, deps);
      exchanges.set(m.x, exchange);
      if (m.end !== undefined) exchange.requestEnd(m.end);
    },
    'request-chunk': (m) => {
      hold(m.x, 0, m.data);
      const exchange = of(m.x);
      exchange?.requestChunk(bufferOf(m.data));
      if (m.end !== undefined) exchange?.requestEnd(m.end);
    },
    'request-end': (m) => of(m.x)?.requestEnd(m.t),
    response: (m) => {
      of(m.x)?.response(m.status, m.headers, m.t);
      if (m.end !== undefined) responseEnd(m.x, m.end);
    },
    'response-chunk': (m) => {
      hold(m.x, 1, m.data);
      of(m.x)?.responseChunk(bufferOf(m.data), m.t, m.mark);
      if (m.end !== undefined) responseEnd(m.x, m.end);
    },
    'response-end': (m) => responseEnd(m.x, m.t),
    rewrite: (m) => of(m.x)?.endpointRewritten(m.rewrite),
    'auth-rewrite': (m) => of(m.x)?.authRewritten(m.rewrite),
    failed: (m) => {
      const { answered, ...failure } = m.failure;
      of(m.x)?.failed(answered ? { ...failure, answered: { status: answered.status, body: bufferOf(answered.body) } } : failure, m.t);
      exchanges.delete(m.x);
      settle(m.x);
    },
    lost: (m) => {
      const exchange = exchanges.get(m.x);
      const where = exchange ? { httpMethod: exchange.start.method, path: exchange.start.path } : {};
      gaps(forget(m.x, m), { reason: 'the observer fell behind; an exchange was forwarded but not recorded', ...where }, m.t);
      // Its session is let go as at the exchange's end (see abandon), once its bytes are counted.
      exchange?.abandon(m.t);
    },
    event: (m) => recorder.event(undefined, m.kind, m.fields, m.t),
    stopped: () => sessions.endAll(),
  };

  // Exchanges whose bytes were dropped because the spy was exiting: the rest of each is ignored.
  const droppedExchanges = new Set<number>();
  const droppedBytes = [0, 0];
  const drop = (lost: readonly number[]) => lost.forEach((bytes, side) => (droppedBytes[side]! += bytes));

  return {
    handle: (message: HttpMessage) => (handlers[message.type] as (m: HttpMessage) => void)(message),
    recorded: () => recorded,
    drop(message: HttpMessage): boolean {
      if (!('x' in message)) return false;
      if (message.type === 'request-chunk' || message.type === 'response-chunk') {
        const more = { request: 0, response: 0, [message.type === 'request-chunk' ? 'request' : 'response']: message.data.byteLength };
        drop(forget(message.x, more));
        droppedExchanges.add(message.x);
        return true;
      }
      if (!droppedExchanges.has(message.x)) return false;
      // The bytes of a dropped exchange that outran the observer before: dropped all the same.
      if (message.type === 'lost') drop(forget(message.x, message));
      return true;
    },
    dropped() {
      if (droppedBytes[0] === 0 && droppedBytes[1] === 0) return;
      const reason = `the spy was exiting ${causeInWords(cause())}; ${droppedExchanges.size} exchange(s) were forwarded but not recorded`;
      gaps(droppedBytes, { reason });
      droppedBytes.fill(0);
    },
    end: () => sessions.endAll(),
  };
}
