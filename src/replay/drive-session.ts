import { isObject, type JsonObject } from '../protocol/jsonrpc.js';
import { within } from '../recording/deferred.js';
import { ReplayError } from '../recording/errors.js';
import { buildExchanges, type RecordedExchange } from '../recording/exchanges.js';
import { withId } from '../recording/json.js';
import { createLiveSession, type LiveSession } from './live-session.js';
import type { RecordedSession } from '../recording/load.js';
import { createMatcher } from '../recording/matcher.js';
import type { PeerFactory } from './peer.js';
import { isUnreachable } from './peer-http.js';
import { createValueMap, type ValueMap } from './value-map.js';
import { awaitedNotificationsOf, awaitNotifications, createPacer, frameLabel, quietWaitMs, sayIfLong } from './waiting.js';

export interface DriveOptions {
  /** How long to wait for each response, and for a recorded server request to come again, in ms. */
  timeoutMs: number;
  /** Send client frames as recorded, without waiting for the responses recorded before them. */
  concurrency: boolean;
  /** Also wait for the recorded server notifications before ending the session. */
  notifications: boolean;
  ignores: readonly string[];
  /** Where the server hands out values the client sends back (task ids, cursors): mapped like ids. */
  follows: readonly string[];
  /** 1 keeps the recorded gaps between client frames; 0 sends as soon as what the client waited for came. */
  speed: 0 | 1;
  /** Told what the replay waits for when a wait goes on (a notification, a server request): one line each. */
  onWaiting?: (text: string) => void;
}

/** One step of the recorded client: send a frame, or answer a request the server should make again. */
type Step = { send: RecordedExchange } | { answer: RecordedExchange };

function stepsOf(session: RecordedSession, client: RecordedExchange[], server: RecordedExchange[]): Step[] {
  const byRequest = new Map(client.map((exchange) => [exchange.request, exchange]));
  const byAnswer = new Map(server.filter((exchange) => exchange.response).map((exchange) => [exchange.response!, exchange]));
  const steps: Step[] = [];
  for (const frame of session.frames) {
    if (frame.dir !== 'c2s') continue;
    const sent = byRequest.get(frame);
    const answered = byAnswer.get(frame);
    if (sent) steps.push({ send: sent });
    else if (answered) steps.push({ answer: answered });
  }
  return steps;
}

/** Waits for the responses that were recorded before the frame at `lineNo` (the ones it may depend on). */
async function awaitEarlierResponses(live: LiveSession, client: RecordedExchange[], lineNo: number, timeoutMs: number) {
  for (const exchange of client) {
    if (!exchange.response || exchange.response.lineNo > lineNo) continue;
    const request = live.sentFor(exchange);
    if (request && !request.done.settled) await within(request.done.promise, timeoutMs - (performance.now() - request.sentAt));
  }
}

function send(live: LiveSession, peer: { send(raw: string, message: JsonObject): void }, exchange: RecordedExchange, values: ValueMap) {
  const { request } = exchange;
  const mapped = values.apply(request.message);
  if (request.kind !== 'request') {
    peer.send(mapped === request.message ? request.raw : JSON.stringify(mapped), mapped);
    return;
  }
  const tracked = live.track(exchange);
  const message = tracked.sentId === request.id ? mapped : withId(mapped, tracked.sentId);
  peer.send(message === request.message ? request.raw : JSON.stringify(message), message);
}

/** Plays one recorded session against a fresh peer and returns what the live server did. */
export async function driveSession(session: RecordedSession, openPeer: PeerFactory, options: DriveOptions) {
  const { client, server } = buildExchanges(session);
  const serverMatcher = createMatcher(server, { ignores: options.ignores, reuse: true });
  let peerRef: { send(raw: string, message: JsonObject): void } | undefined;
  const values = createValueMap(options.follows);
  const live = createLiveSession(serverMatcher, (message) => peerRef?.send(JSON.stringify(message), message), values);
  const peer = await openPeer(live.handlers);
  peerRef = peer;
  const pacer = createPacer(options.speed);
  const awaitedBefore = awaitedNotificationsOf(session);

  for (const step of stepsOf(session, client, server)) {
    if (live.gone.settled || refusedAtStart(live, client)) break;
    const frame = 'send' in step ? step.send.request : step.answer.response!;
    if (!options.concurrency) await awaitEarlierResponses(live, client, frame.lineNo, options.timeoutMs);
    const awaited = options.concurrency ? undefined : awaitedBefore.get(frame);
    if (awaited) await awaitNotifications(live, awaited, performance.now() + options.timeoutMs, frame, options.onWaiting);
    await pacer.before(frame);
    if ('send' in step) send(live, peer, step.send, values);
    else if (!options.concurrency) await awaitServerRequest(live, step.answer, options.timeoutMs, options.onWaiting);
  }
  if (!refusedAtStart(live, client)) {
    await awaitEarlierResponses(live, client, Number.MAX_SAFE_INTEGER, options.timeoutMs);
    const deadline = performance.now() + options.timeoutMs;
    for (const exchange of server)
      if (!serverMatcher.wasUsed(exchange)) await awaitServerRequest(live, exchange, deadline - performance.now(), options.onWaiting);
    if (options.notifications) await awaitAllNotifications(live, session, deadline);
  }
  learnSessionIds(session, peer.sessionId?.(), values);
  const stderr = peer.stderrTail();
  const goneEarly = live.goneReason;
  live.closing();
  await peer.close();
  failIfNeverRan(live, client, goneEarly, stderr);
  return { client, server, live, values };
}

/** The Mcp-Session-Ids the recorded session ran under (its record's session, the headers its requests carried). */
function recordedSessionIds(session: RecordedSession): Set<string> {
  const ids = new Set<string>();
  for (const { entry } of session.frames) {
    if (typeof entry.session === 'string') ids.add(entry.session);
    const header = isObject(entry.headers) ? (entry.headers as Record<string, unknown>)['mcp-session-id'] : undefined;
    if (typeof header === 'string') ids.add(header);
  }
  return ids;
}

/** Maps the recorded session ids to the live one, so that a text quoting its session id is the same text. */
function learnSessionIds(session: RecordedSession, live: string | undefined, values: ValueMap) {
  if (live === undefined) return;
  for (const recorded of recordedSessionIds(session)) values.learnSession(recorded, live);
}

/** Waits for the live server to make a recorded request of its own again (sampling, roots ...), saying so when it is long. */
async function awaitServerRequest(live: LiveSession, exchange: RecordedExchange, ms: number, say?: (text: string) => void) {
  const waiting = within(live.arrival(exchange), ms);
  sayIfLong(
    waiting,
    say &&
      (() =>
        say(
          `waiting up to ${Math.round((ms - quietWaitMs) / 1000)}s more for the server to make its request ${frameLabel(exchange.request)} again, as recorded`,
        )),
  );
  await waiting;
}

async function awaitAllNotifications(live: LiveSession, session: RecordedSession, deadline: number) {
  const wanted = session.frames.filter((frame) => frame.dir === 's2c' && frame.kind === 'notification').length;
  while (live.notifications.length < wanted && !live.gone.settled && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A request the server refused (an HTTP error) before it said anything: nothing sent later can fare better. */
function refusedAtStart(live: LiveSession, client: RecordedExchange[]) {
  if (live.heard) return undefined;
  for (const exchange of client) {
    const request = live.sentFor(exchange);
    if (request?.failure) return request;
  }
  return undefined;
}

/** A server that never said a word and is gone (or never reachable, or refused the start) is a start failure, not a diff. */
function failIfNeverRan(live: LiveSession, client: RecordedExchange[], goneEarly: string | undefined, stderr: string) {
  if (live.heard) return;
  const refused = refusedAtStart(live, client);
  if (refused && isUnreachable(refused.failure!)) throw new ReplayError(`the server is not reachable: ${refused.failure}`, 1);
  if (refused)
    throw new ReplayError(`the server refused ${refused.exchange.request.method ?? 'the first request'}, so the replay stopped there: ${refused.failure}`, 1);
  const sent = client.map((exchange) => live.sentFor(exchange)).filter((request) => request !== undefined);
  if (sent.length > 0 && goneEarly) throw new ReplayError(`${goneEarly} before answering anything${stderr ? `; its stderr: ${stderr}` : ''}`, 1);
}
