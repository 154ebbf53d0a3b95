import { idKey, isObject, type JsonRpcId } from '../protocol/jsonrpc.js';
import { oppositeOf } from '../wire/classify/kinds.js';
import { notesOf } from '../record/entry-fields.js';
import type { RecordedFrame, RecordedSession } from './load.js';

/**
 * A recorded request (or notification) and what answered it: the response, and the server's own
 * notifications and requests that came while it was pending (`during`) or after it, before the
 * client's next frame (`after`).
 */
export interface RecordedExchange {
  session: string;
  request: RecordedFrame;
  response?: RecordedFrame;
  during: RecordedFrame[];
  after: RecordedFrame[];
}

export interface SessionExchanges {
  /** Client requests and notifications, in recorded order. */
  client: RecordedExchange[];
  /** Server-to-client requests (sampling, roots, elicitation, ping) with the client's recorded answers. */
  server: RecordedExchange[];
}

function relatedSeq(frame: RecordedFrame): number | undefined {
  const related = frame.entry.related;
  return isObject(related) && typeof related.seq === 'number' ? related.seq : undefined;
}

const isOrphan = (frame: RecordedFrame) => notesOf(frame.entry).includes('orphan-response');

const isMessageWithMethod = (frame: RecordedFrame) => frame.kind === 'request' || frame.kind === 'notification';

/**
 * Pairs requests with responses and places each unsolicited server frame. A response names its
 * request in the record (`related.seq`, set by the correlator when it was recorded), so pairs are
 * read, not worked out again: a response the spy could not pair (an orphan) pairs with nothing.
 * Only a response that says neither (a record written by hand) is paired by direction and id.
 */
export function buildExchanges(session: RecordedSession): SessionExchanges {
  const client: RecordedExchange[] = [];
  const server: RecordedExchange[] = [];
  const requests = new Map<number, RecordedExchange>();
  const byId = new Map<string, RecordedExchange>();
  const open: RecordedExchange[] = [];
  let lastClient: RecordedExchange | undefined;

  const place = (frame: RecordedFrame) => {
    const seq = relatedSeq(frame);
    const owner = open.find((exchange) => exchange.request.seq === seq) ?? open.at(-1);
    if (owner) owner.during.push(frame);
    else lastClient?.after.push(frame);
  };

  for (const frame of session.frames) {
    if (isMessageWithMethod(frame)) {
      const exchange: RecordedExchange = { session: session.id, request: frame, during: [], after: [] };
      if (frame.kind === 'request') {
        requests.set(frame.seq, exchange);
        byId.set(`${frame.dir}/${idKey(frame.id as JsonRpcId)}`, exchange);
      }
      if (frame.dir === 'c2s') {
        client.push(exchange);
        lastClient = exchange;
        if (frame.kind === 'request') open.push(exchange);
        continue;
      }
      if (frame.kind === 'request') server.push(exchange);
      place(frame);
      continue;
    }
    const seq = relatedSeq(frame);
    const exchange =
      seq !== undefined ? requests.get(seq) : isOrphan(frame) ? undefined : byId.get(`${oppositeOf(frame.dir)}/${idKey((frame.id ?? null) as JsonRpcId)}`);
    if (!exchange || exchange.response || exchange.request.dir === frame.dir) continue;
    exchange.response = frame;
    const at = open.indexOf(exchange);
    if (at !== -1) open.splice(at, 1);
  }
  return { client, server };
}
