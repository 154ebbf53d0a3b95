import { isObject, type JsonObject } from '../protocol/jsonrpc.js';
import { diffMessages } from '../recording/compare.js';
import type { RecordedExchange } from '../recording/exchanges.js';
import type { LiveSession } from './live-session.js';
import type { RecordedFrame, RecordedSession } from '../recording/load.js';
import type { ReplayItem, SessionResult } from './result.js';
import type { ValueMap } from './value-map.js';

/** A recorded server frame and the live message that differed from it. */
export interface FrameChange {
  frame: RecordedFrame;
  message: JsonObject;
  /** The live text, when the message came alone as it is. */
  raw?: string;
}

export interface SessionOutcome {
  result: SessionResult;
  /** Recorded server frames whose live counterpart differed: what `--update` writes instead. */
  changes: FrameChange[];
}

function nameOf(frame: RecordedFrame): string | undefined {
  const { tool, prompt, uri } = frame.entry;
  return [tool, prompt, uri].find((value): value is string => typeof value === 'string');
}

function baseItem(frame: RecordedFrame, kind: ReplayItem['kind']): Omit<ReplayItem, 'status'> {
  const name = nameOf(frame);
  return {
    kind,
    method: frame.method ?? '(none)',
    ...(name ? { name } : {}),
    ...(frame.id !== undefined ? { id: frame.id } : {}),
    seq: frame.seq,
    line: frame.lineNo,
  };
}

/** Differences once the values the server generated (task ids, cursors) are mapped: those are expected to differ. */
const diffMapped = (values: ValueMap, recorded: unknown, actual: unknown, ignores: readonly string[]) => diffMessages(values.apply(recorded), actual, ignores);

function responseItem(
  exchange: RecordedExchange,
  live: LiveSession,
  values: ValueMap,
  ignores: readonly string[],
  changes: SessionOutcome['changes'],
  timeoutMs: number,
): ReplayItem {
  const base = baseItem(exchange.request, 'response');
  const sent = live.sentFor(exchange);
  const recorded = exchange.response;
  if (!sent) return { ...base, status: 'missing', reason: `not sent: ${live.goneReason ?? 'the session ended'}` };
  const answer = sent.answer;
  if (!recorded)
    return answer
      ? { ...base, status: 'extra', reason: 'answered now, unanswered in the recording', actual: answer.message }
      : { ...base, status: 'same', reason: 'unanswered, as recorded' };
  if (!answer) {
    const reason = sent.failure ?? live.goneReason ?? `no response within ${timeoutMs}ms`;
    return { ...base, status: 'missing', reason, recorded: recorded.message };
  }
  const diff = diffMapped(values, recorded.message, answer.message, ignores);
  if (diff.length === 0) return { ...base, status: 'same', latencyMs: answer.latencyMs };
  changes.push({ frame: recorded, message: answer.message, raw: answer.raw });
  return { ...base, status: 'changed', latencyMs: answer.latencyMs, diff, recorded: recorded.message, actual: answer.message };
}

function serverRequestItems(server: RecordedExchange[], live: LiveSession, ignores: readonly string[], changes: FrameChange[]): ReplayItem[] {
  const items: ReplayItem[] = [];
  for (const exchange of server) {
    const base = baseItem(exchange.request, 'server-request');
    const seen = live.serverRequests.find((request) => request.exchange === exchange);
    if (!seen) items.push({ ...base, status: 'missing', reason: 'the server did not make this request' });
    else if (seen.exact) items.push({ ...base, status: 'same' });
    else {
      changes.push({ frame: exchange.request, message: seen.message });
      items.push({
        ...base,
        status: 'changed',
        diff: diffMessages(exchange.request.message, seen.message, ignores),
        recorded: exchange.request.message,
        actual: seen.message,
      });
    }
  }
  for (const request of live.serverRequests) {
    if (request.exchange || request.message.method === 'ping') continue;
    items.push({
      kind: 'server-request',
      status: 'extra',
      method: String(request.message.method),
      id: request.message.id as ReplayItem['id'],
      reason: 'not in the recording (answered with an error)',
      actual: request.message,
    });
  }
  return items;
}

function notificationItems(session: RecordedSession, live: LiveSession, values: ValueMap, ignores: readonly string[], changes: FrameChange[]): ReplayItem[] {
  const unclaimed = [...live.notifications];
  const items: ReplayItem[] = [];
  const take = (at: number) => unclaimed.splice(at, 1)[0]!;
  for (const frame of session.frames.filter((candidate) => candidate.dir === 's2c' && candidate.kind === 'notification')) {
    const base = baseItem(frame, 'notification');
    const sameMethod = (message: JsonObject) => message.method === frame.method;
    const exact = unclaimed.findIndex((message) => sameMethod(message) && diffMapped(values, frame.message, message, ignores).length === 0);
    if (exact !== -1) {
      take(exact);
      items.push({ ...base, status: 'same' });
      continue;
    }
    const near = unclaimed.findIndex(sameMethod);
    if (near === -1) items.push({ ...base, status: 'missing', reason: 'the server did not send it' });
    else {
      const actual = take(near);
      changes.push({ frame, message: actual });
      items.push({ ...base, status: 'changed', diff: diffMapped(values, frame.message, actual, ignores), recorded: frame.message, actual });
    }
  }
  for (const message of unclaimed)
    items.push({ kind: 'notification', status: 'extra', method: String(message.method), reason: 'not in the recording', actual: message });
  return items;
}

/** Turns what the live server did into one item per compared message, in recorded order, extras last. */
export function collectItems(
  session: RecordedSession,
  driven: { client: RecordedExchange[]; server: RecordedExchange[]; live: LiveSession; values: ValueMap },
  options: { timeoutMs: number; notifications: boolean; ignores: readonly string[] },
): SessionOutcome {
  const changes: SessionOutcome['changes'] = [];
  const { client, server, live, values } = driven;
  const requests = client.filter((exchange) => exchange.request.kind === 'request');
  const items = [
    ...requests.map((exchange) => responseItem(exchange, live, values, options.ignores, changes, options.timeoutMs)),
    ...serverRequestItems(server, live, options.ignores, changes),
    ...(options.notifications ? notificationItems(session, live, values, options.ignores, changes) : []),
  ];
  const orphans = live.orphans.filter(isObject).map(
    (message): ReplayItem => ({
      kind: 'response',
      status: 'extra',
      method: '(unknown)',
      id: message.id as ReplayItem['id'],
      reason: 'a response to no request that was sent',
      actual: message,
    }),
  );
  const ordered = [
    ...items.filter((item) => item.line !== undefined).sort((a, b) => a.line! - b.line!),
    ...items.filter((item) => item.line === undefined),
    ...orphans,
  ];
  return {
    result: {
      session: session.id,
      transport: session.transport,
      ...(session.revision ? { revision: session.revision } : {}),
      probe: session.probe,
      items: ordered,
    },
    changes,
  };
}
