import type { EventFields } from '../../record/schema.js';
import { isObserved } from '../../sinks/open-sinks.js';
import { roomForObserver } from '../address-space.js';
import { ignoreExchange, type ExchangeTap, type ExchangeStart, type FrameMark } from '../../wire/http/exchange-tap.js';
import { nowMs } from '../../wire/framing/now.js';
import { openObserverChannel, type ChannelOptions, type FinishOutcome } from '../channel/open-channel.js';
import type { HttpMessage, HttpObserverConfig } from './http-messages.js';

/** The HTTP spy's handle on the observer thread: each exchange is announced through it (its tap comes back), and the spy's own events. */
export interface HttpObserverHandle {
  observe(start: ExchangeStart): ExchangeTap;
  /** An event of the spy itself, outside any session. */
  event<K extends 'http' | 'spawn' | 'exit' | 'fault' | 'intercept'>(kind: K, fields: EventFields<K>): void;
  /** The proxy stopped: every open session ends. */
  stopped(): void;
  finish(timeoutMs?: number): Promise<FinishOutcome>;
  /** A stop signal arrived while finishing: finish now, the gaps naming it. */
  hurry(signal?: NodeJS.Signals): void;
  /** Settles once the observer thread runs (its modules loaded, its files open), or failed to start. */
  started: Promise<void>;
  /** The bytes handed over that the observer has not read yet. */
  readonly behind: number;
}

/** Nothing records, logs or shows: no thread, no copy; finishing has nothing to wait for. */
const idleHttpHandle: HttpObserverHandle = {
  observe: () => ignoreExchange,
  event: () => {},
  stopped: () => {},
  finish: () => Promise.resolve({ closed: true }),
  hurry: () => {},
  started: Promise.resolve(),
  behind: 0,
};

/** The HTTP spy's side of the observer thread, or an idle one when nothing would come of observing. */
export function startHttpObserver(config: HttpObserverConfig, options: ChannelOptions): HttpObserverHandle {
  return isObserved(config) && roomForObserver(options.warn) ? openHttpObserver(config, options) : idleHttpHandle;
}

/**
 * The HTTP spy's side of the observer thread: each exchange's head, bytes and end go over as
 * they pass, stamped with the time the spy forwarded them. When the observer is too far behind,
 * the rest of that exchange is counted, not handed over, and it becomes one `gap` in the record;
 * with --lossless it goes over all the same, and `roomFor` tells the proxy to stop reading bodies.
 */
function openHttpObserver(config: HttpObserverConfig, options: ChannelOptions): HttpObserverHandle {
  // The bodies of requests and of responses are counted apart: a gap says which side it lost.
  const channel = openObserverChannel<HttpMessage>({ kind: 'http', ...config }, { ...options, streams: ['c2s', 's2c'] });
  const { push } = channel;
  let exchanges = 0;

  function observe(start: ExchangeStart): ExchangeTap {
    const x = ++exchanges;
    /** Body bytes of the request and of the response not handed over, once the exchange outran the observer. */
    const unsent = { request: 0, response: 0 };
    let lost = 0;
    /** This exchange's last message: an end rides on it while it is the last of the batch. */
    let previous: HttpMessage = {
      type: 'open',
      x,
      method: start.method,
      path: start.path,
      headers: start.headers,
      ...(start.marks ? { marks: start.marks } : {}),
    };
    const send = (message: HttpMessage) => {
      previous = message;
      push(message);
    };
    push(previous);
    const bytes = (type: 'request-chunk' | 'response-chunk', chunk: Buffer, t: number, mark?: FrameMark) => {
      if (chunk.length === 0) return;
      const side = type === 'request-chunk' ? 'request' : 'response';
      channel.count(side === 'request' ? 0 : 1, chunk.length);
      const data = lost === 0 ? channel.copy(chunk) : undefined;
      if (data) send(mark ? { type: 'response-chunk', x, t, data, mark } : { type, x, t, data });
      else {
        lost += chunk.length;
        unsent[side] += chunk.length;
      }
    };
    /** What ends an exchange whose bytes outran the observer: a gap in the record for each side it lost. */
    const lostMessage = (): HttpMessage => ({ type: 'lost', x, t: nowMs(), ...unsent });
    /** The end of the request (`open`, `request-chunk`) or of the response (`response`, `response-chunk`). */
    const end = (type: 'request-end' | 'response-end', t: number) => {
      const riding =
        channel.last() === previous &&
        (type === 'request-end'
          ? previous.type === 'open' || previous.type === 'request-chunk'
          : previous.type === 'response' || previous.type === 'response-chunk');
      if (riding) (previous as { end?: number }).end = t;
      else send({ type, x, t });
    };
    return {
      requestChunk: (chunk, t = nowMs()) => bytes('request-chunk', chunk, t),
      requestEnd: (t = nowMs()) => lost === 0 && end('request-end', t),
      response: (status, headers, t = nowMs()) => lost === 0 && send({ type: 'response', x, t, status, headers }),
      responseChunk: (chunk, t = nowMs(), mark) => bytes('response-chunk', chunk, t, mark),
      responseEnd: (t = nowMs()) => (lost > 0 ? push(lostMessage()) : end('response-end', t)),
      endpointRewritten: (rewrite) => lost === 0 && send({ type: 'rewrite', x, rewrite }),
      authRewritten: (rewrite) => lost === 0 && send({ type: 'auth-rewrite', x, rewrite }),
      failed: (failure, t = nowMs()) => push(lost > 0 ? lostMessage() : { type: 'failed', x, t, failure }),
      roomFor: () => channel.roomFor(),
    };
  }

  return {
    observe,
    event<K extends 'http' | 'spawn' | 'exit' | 'fault' | 'intercept'>(kind: K, fields: EventFields<K>) {
      push({ type: 'event', kind, t: nowMs(), fields });
    },
    stopped() {
      push({ type: 'stopped' });
    },
    finish: channel.finish,
    hurry: channel.hurry,
    started: channel.started,
    get behind() {
      return channel.behind;
    },
  };
}
