import { idKey, isObject, type JsonObject, type JsonRpcId } from '../protocol/jsonrpc.js';
import { classifyMessage } from '../wire/classify/classify.js';
import { createDeferred, type Deferred } from '../recording/deferred.js';
import type { RecordedExchange } from '../recording/exchanges.js';
import { withId } from '../recording/json.js';
import type { Matcher } from '../recording/matcher.js';
import type { PeerHandlers } from './peer.js';
import type { ValueMap } from './value-map.js';

/** What the server sent back for one client request. */
export interface LiveAnswer {
  message: JsonObject;
  raw: string;
  latencyMs: number;
}

/** A client request sent to the live server, and what became of it. */
export interface SentRequest {
  exchange: RecordedExchange;
  sentId: JsonRpcId;
  sentAt: number;
  answer?: LiveAnswer;
  failure?: string;
  done: Deferred;
}

/** A request the live server made, and the recorded exchange it was answered from. */
export interface LiveServerRequest {
  message: JsonObject;
  exchange?: RecordedExchange;
  exact: boolean;
}

/**
 * The live side of one replayed session: which requests were sent, what came back, which server
 * requests were answered from the recording. It answers those requests itself, as the recorded client did.
 */
export function createLiveSession(serverMatcher: Matcher, reply: (message: JsonObject) => void, values?: ValueMap) {
  const pending = new Map<string, SentRequest>();
  const sent = new Map<RecordedExchange, SentRequest>();
  const arrivals = new Map<RecordedExchange, Deferred>();
  const serverRequests: LiveServerRequest[] = [];
  const notifications: JsonObject[] = [];
  const orphans: JsonObject[] = [];
  const gone = createDeferred<string>();
  let heard = false;
  let goneReason: string | undefined;
  let closing = false;
  let replayIds = 0;

  const arrivalOf = (exchange: RecordedExchange) => {
    let deferred = arrivals.get(exchange);
    if (!deferred) arrivals.set(exchange, (deferred = createDeferred()));
    return deferred;
  };

  function onServerRequest(message: JsonObject, method: string) {
    const outcome = serverMatcher.match(method, message.params, true);
    if (!outcome.ok) {
      serverRequests.push({ message, exact: false });
      if (method === 'ping') reply({ jsonrpc: '2.0', id: message.id, result: {} });
      else reply({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `mcp-spy replay: the recording has no answer to ${method}` } });
      return;
    }
    serverRequests.push({ message, exchange: outcome.exchange, exact: outcome.exact });
    const answer = outcome.exchange.response?.message;
    if (answer) reply(withId(values?.apply(answer) ?? answer, message.id));
    arrivalOf(outcome.exchange).resolve();
  }

  function onResponse(message: JsonObject, raw: string, id: JsonRpcId) {
    const request = pending.get(idKey(id));
    if (!request) {
      orphans.push(message);
      return;
    }
    pending.delete(idKey(id));
    request.answer = { message, raw, latencyMs: Math.round(performance.now() - request.sentAt) };
    values?.learn(request.exchange.response?.message, message);
    request.done.resolve();
  }

  const handlers: PeerHandlers = {
    message(value, raw) {
      if (!isObject(value)) return;
      heard = true;
      const classified = classifyMessage(value);
      if (classified.kind === 'request') onServerRequest(value, classified.method!);
      else if (classified.kind === 'notification') notifications.push(value);
      else if (classified.hasId) onResponse(value, raw, classified.id ?? null);
    },
    failed(message, reason) {
      const request = 'id' in message ? pending.get(idKey(message.id as JsonRpcId)) : undefined;
      if (!request) return;
      pending.delete(idKey(request.sentId));
      request.failure = reason;
      request.done.resolve();
    },
    closed(reason) {
      if (!closing) goneReason ??= reason;
      gone.resolve(reason);
      for (const request of pending.values()) request.done.resolve();
      for (const arrival of arrivals.values()) arrival.resolve();
    },
  };

  return {
    handlers,
    /** Registers a client request about to be sent; gives the id to send it with (the recorded one unless it is in use). */
    track(exchange: RecordedExchange): SentRequest {
      const recordedId = (exchange.request.id ?? null) as JsonRpcId;
      const sentId = pending.has(idKey(recordedId)) ? `mcp-spy-replay-${++replayIds}` : recordedId;
      const request: SentRequest = { exchange, sentId, sentAt: performance.now(), done: createDeferred() };
      pending.set(idKey(sentId), request);
      sent.set(exchange, request);
      if (gone.settled) request.done.resolve();
      return request;
    },
    sentFor: (exchange: RecordedExchange) => sent.get(exchange),
    /** Settles when the live server made the request this recorded server request stands for. */
    arrival: (exchange: RecordedExchange) => (gone.settled ? Promise.resolve() : arrivalOf(exchange).promise),
    gone,
    get heard() {
      return heard;
    },
    /** From now on the server goes because the replay ends the session, not on its own. */
    closing() {
      closing = true;
    },
    /** Why the server went away on its own, if it did. */
    get goneReason(): string | undefined {
      return goneReason;
    },
    serverRequests,
    notifications,
    orphans,
  };
}

export type LiveSession = ReturnType<typeof createLiveSession>;
