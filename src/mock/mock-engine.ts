import { idKey, isObject, pick, type JsonObject, type JsonRpcId } from '../protocol/jsonrpc.js';
import { classifyMessage } from '../wire/classify/classify.js';
import { createDeferred, sleep, within, type Deferred } from '../recording/deferred.js';
import { buildExchanges, type RecordedExchange } from '../recording/exchanges.js';
import { withId } from '../recording/json.js';
import type { RecordedFrame, RecordedSession } from '../recording/load.js';
import { createMatcher } from '../recording/matcher.js';
import { initializationMethods, initializeAnswer, missAnswer, withLiveProgressToken } from './mock-answers.js';

export interface MockOptions {
  ignores: readonly string[];
  /** Answer a request again once its recorded answers were all used. */
  reuse: boolean;
  /** On a request with no recorded answer: answer with a JSON-RPC error, or close the connection. */
  onMiss: 'error' | 'close';
  /** 0: no delays; 1: the recorded timing. */
  speed: 0 | 1;
  /** How long to wait for the client to answer a request the mock makes, in ms. */
  timeoutMs: number;
}

const frameGapMs = 5;

/** Where the mock's messages go: the reply to the request at hand, or the session's own stream. */
export interface MockChannel {
  send(message: JsonObject): void;
}

export type MockVerdict = 'answered' | 'close';

/** The mock's answer engine: one per client connection (a stdio run, an HTTP session). */
export function createMockEngine(sessions: readonly RecordedSession[], options: MockOptions) {
  const built = sessions.map(buildExchanges);
  const client = built.flatMap((exchanges) => exchanges.client);
  const isInit = (exchange: RecordedExchange) => (initializationMethods as readonly string[]).includes(exchange.request.method ?? '');
  const requests = client.filter((exchange) => exchange.request.kind === 'request' && !isInit(exchange));
  const notifications = client.filter((exchange) => exchange.request.kind === 'notification');
  const initializers = new Map(
    client
      .filter((exchange) => isInit(exchange) && exchange.response)
      .reverse()
      .map((exchange) => [exchange.request.method!, exchange]),
  );
  const requestMatcher = createMatcher(requests, { ignores: options.ignores, reuse: options.reuse });
  const notificationMatcher = createMatcher(notifications, { ignores: options.ignores, reuse: false });
  const awaiting = new Map<string, Deferred>();
  let ended = false;

  async function emit(frame: RecordedFrame, channel: MockChannel, progressToken: unknown) {
    if (frame.kind === 'notification') {
      channel.send(withLiveProgressToken(frame.message, progressToken));
      return;
    }
    // A server request: the client's answer is awaited, as the recorded server awaited it.
    const answered = createDeferred();
    awaiting.set(idKey((frame.id ?? null) as JsonRpcId), answered);
    channel.send(frame.message);
    if (!ended) await within(answered.promise, options.timeoutMs);
  }

  /**
   * Waits before the next frame of an exchange: its recorded offset at speed 1. At speed 0 frames still
   * go one write at a time, a few ms apart: a client that reads a progress notification and the
   * response in one chunk may drop the progress (the SDK 1.x client does).
   */
  function pacer() {
    const started = performance.now();
    let first = true;
    return async (offsetMs: number) => {
      if (options.speed === 1) await sleep(offsetMs - (performance.now() - started));
      else if (!first) await sleep(frameGapMs);
      first = false;
    };
  }

  async function play(
    exchange: RecordedExchange,
    request: JsonObject | undefined,
    answer: JsonObject | undefined,
    reply: MockChannel,
    background: MockChannel,
  ) {
    const pace = pacer();
    const base = exchange.request.t;
    const progressToken = pick(request, 'params', '_meta', 'progressToken');
    for (const frame of exchange.during) {
      await pace(frame.t - base);
      await emit(frame, reply, progressToken);
    }
    if (answer) {
      await pace((exchange.response?.t ?? base) - base);
      reply.send(answer);
    }
    for (const frame of exchange.after) {
      await pace(frame.t - base);
      await emit(frame, background, progressToken);
    }
  }

  async function onRequest(message: JsonObject, method: string, reply: MockChannel, background: MockChannel): Promise<MockVerdict> {
    const init = initializers.get(method);
    if (init) {
      await play(init, message, initializeAnswer(init.response!.message, message), reply, background);
      return 'answered';
    }
    const outcome = requestMatcher.match(method, message.params);
    if (outcome.ok) {
      const recorded = outcome.exchange.response?.message;
      await play(outcome.exchange, message, recorded ? withId(recorded, message.id) : undefined, reply, background);
      return 'answered';
    }
    if (method === 'ping') {
      reply.send({ jsonrpc: '2.0', id: message.id, result: {} });
      return 'answered';
    }
    if (options.onMiss === 'close') return 'close';
    reply.send(missAnswer(message, outcome, options.ignores));
    return 'answered';
  }

  async function handle(message: JsonObject, method: string, isRequest: boolean, reply: MockChannel, background: MockChannel): Promise<MockVerdict> {
    if (isRequest) return onRequest(message, method, reply, background);
    const outcome = notificationMatcher.match(method, message.params, true);
    if (outcome.ok) await play(outcome.exchange, message, undefined, background, background);
    return 'answered';
  }

  // Requests and notifications are handled one at a time, in arrival order, as the recorded server
  // saw them; the client's answers to the mock's own requests bypass the queue (one may be awaited).
  let queue: Promise<unknown> = Promise.resolve();

  return {
    /** Handles one client message; resolves when everything it triggers was sent. */
    receive(message: unknown, reply: MockChannel, background: MockChannel): Promise<MockVerdict> {
      if (!isObject(message)) return Promise.resolve('answered');
      const classified = classifyMessage(message);
      if (classified.kind === 'request' || classified.kind === 'notification') {
        const task = queue.then(() => handle(message, classified.method!, classified.kind === 'request', reply, background));
        queue = task.catch(() => {});
        return task;
      }
      if (classified.hasId) awaiting.get(idKey(classified.id ?? null))?.resolve();
      return Promise.resolve('answered');
    },
    /** The client is gone: stop waiting for its answers. */
    end() {
      for (const answered of awaiting.values()) answered.resolve();
      ended = true;
    },
  };
}

export type MockEngine = ReturnType<typeof createMockEngine>;
