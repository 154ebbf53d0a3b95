import { createExchangeSessions } from '../../wire/http/exchange-sessions.js';
import { observeExchange, type ObservedExchange } from '../../wire/http/http-exchange.js';
import type { StatusTexts } from '../../wire/http/http-summary.js';
import { createHeaderRedactor } from '../../wire/http/redact-headers.js';
import type { Recorder } from '../recorder.js';
import type { HttpMessage, HttpObserverConfig } from './http-messages.js';

const bufferOf = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength);

/**
 * The observer thread's side of the HTTP spy: each exchange the forwarding side announces is
 * observed into the record, one session per Mcp-Session-Id, legacy endpoint, or stateless exchange.
 */
export function observeHttp(config: HttpObserverConfig, recorder: Recorder, statusTexts: StatusTexts, warn?: (message: string) => void) {
  const sessions = createExchangeSessions(recorder);
  const learn = config.redact ? recorder.secrets.learn : undefined;
  const redact = createHeaderRedactor(config.redactHeaders, config.redact, learn);
  const deps = { records: recorder, sessions, maxFrame: config.maxFrame, redact, statusTexts, mcpPath: config.mcpPath, learn, warn };
  const exchanges = new Map<number, ObservedExchange>();
  const of = (x: number) => exchanges.get(x);
  /** Body bytes given to the recorder in ended exchanges or gaps (what the record accounts for), and those of open exchanges. */
  const recorded = [0];
  const held = new Map<number, number>();
  const hold = (x: number, data: Uint8Array) => held.set(x, (held.get(x) ?? 0) + data.byteLength);
  const settle = (x: number, more = 0) => {
    recorded[0]! += (held.get(x) ?? 0) + more;
    held.delete(x);
  };
  const responseEnd = (x: number, t: number) => {
    of(x)?.responseEnd(t);
    exchanges.delete(x);
    settle(x);
  };

  const handlers: { [K in HttpMessage['type']]: (message: Extract<HttpMessage, { type: K }>) => void } = {
    open: (m) => {
      const exchange = observeExchange(m, deps);
      exchanges.set(m.x, exchange);
      if (m.end !== undefined) exchange.requestEnd(m.end);
    },
    'request-chunk': (m) => {
      hold(m.x, m.data);
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
      hold(m.x, m.data);
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
      exchanges.delete(m.x);
      exchange?.abandon(m.t);
      settle(m.x, m.bytes);
      const reason = 'the observer fell behind; an exchange was forwarded but not recorded';
      const where = exchange ? { httpMethod: exchange.start.method, path: exchange.start.path } : {};
      recorder.event(undefined, 'gap', { reason, lost: m.bytes, ...where }, m.t);
    },
    event: (m) => recorder.event(undefined, m.kind, m.fields, m.t),
    stopped: () => sessions.endAll(),
  };

  // Exchanges whose bytes were dropped because the spy was exiting: the rest of each is ignored.
  const droppedExchanges = new Set<number>();
  let droppedBytes = 0;

  return {
    handle: (message: HttpMessage) => (handlers[message.type] as (m: HttpMessage) => void)(message),
    recorded: () => recorded,
    drop(message: HttpMessage): boolean {
      if (!('x' in message)) return false;
      if (message.type === 'request-chunk' || message.type === 'response-chunk') {
        droppedBytes += message.data.byteLength + (held.get(message.x) ?? 0);
        held.delete(message.x);
        droppedExchanges.add(message.x);
        exchanges.delete(message.x);
        return true;
      }
      return droppedExchanges.has(message.x);
    },
    dropped() {
      if (droppedBytes === 0) return;
      const reason = `the spy was exiting (--drain-timeout); ${droppedExchanges.size} exchange(s) were forwarded but not recorded`;
      recorder.event(undefined, 'gap', { reason, lost: droppedBytes });
      recorded[0]! += droppedBytes;
      droppedBytes = 0;
    },
    end: () => sessions.endAll(),
  };
}
