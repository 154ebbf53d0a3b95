import { pick } from '../protocol/jsonrpc.js';
import { isExchangeSession } from '../wire/http/exchange-sessions.js';
import { notesOf } from './entry-fields.js';
import { isFrameEntry } from './frame-message.js';
import type { RecordEntry } from './schema.js';

/**
 * The one definition of an unanswered request over a recording, for `stats`, `check` and the report
 * (the live spy's correlator applies the same rules as the frames go by, and writes what it decided
 * into the record, so a recording reads the same after as it did live). A request is owed an answer
 * until one comes, except when:
 * - its sender cancelled it (`notifications/cancelled`; on stateless HTTP from another exchange);
 * - it is a server request the client closed its input on (`client-closed`, on the frame or in a
 *   note event at the close);
 * - an `http` event says it was never taken: refused by an auth challenge, or posted to a session
 *   that had ended (404);
 * - a fault rule acted on it (`fault` on the frame): left unanswered on purpose, if so.
 */
export interface OpenRequest {
  session: string;
  seq: number;
  lineNo?: number;
  id: unknown;
  dir: string;
  method?: string;
  tool?: string;
  cancelled: boolean;
}

const isAnswer = (kind: string) => kind === 'response' || kind === 'tool-error' || kind === 'protocol-error';

/** The requests an event says are owed no answer: withdrawn (`http` with `requests`) or left by a client that closed. */
export function releasedSeqs(entry: RecordEntry): number[] {
  if (entry.kind === 'http' && Array.isArray(entry.requests))
    return entry.requests.flatMap((request) => (typeof request?.seq === 'number' ? [request.seq] : []));
  if (entry.kind === 'note' && notesOf(entry).includes('client-closed') && typeof entry.related?.seq === 'number') return [entry.related.seq];
  return [];
}

/** Follows a recording entry by entry and tells which requests were left unanswered. */
export function createOwedAnswers() {
  const sessions = new Map<string, Map<number, OpenRequest>>();
  /** Cancellations that named a request of another stateless exchange (records made before the spy related them). */
  const crossCancels = new Set<number>();

  const openIn = (session: string) => {
    let open = sessions.get(session);
    if (!open) sessions.set(session, (open = new Map()));
    return open;
  };

  /** The open request `seq` of `session`; a stateless exchange's may be in another exchange. */
  function find(session: string, seq: number): [Map<number, OpenRequest>, OpenRequest] | undefined {
    const own = sessions.get(session)?.get(seq);
    if (own) return [sessions.get(session)!, own];
    if (!isExchangeSession(session)) return undefined;
    for (const [name, open] of sessions) if (isExchangeSession(name) && open.has(seq)) return [open, open.get(seq)!];
    return undefined;
  }

  function byId(session: string, dir: string, id: unknown, here: boolean): [Map<number, OpenRequest>, OpenRequest] | undefined {
    for (const [name, open] of sessions) {
      if (here ? name !== session : !isExchangeSession(name)) continue;
      for (const request of open.values()) if (request.dir === dir && request.id === id) return [open, request];
    }
    return undefined;
  }

  return {
    add(entry: RecordEntry, message: unknown, lineNo?: number) {
      const session = String(entry.session ?? '');
      if (!isFrameEntry(entry)) {
        for (const seq of releasedSeqs(entry)) find(session, seq)?.[0].delete(seq);
        return;
      }
      const method = typeof entry.method === 'string' ? entry.method : undefined;
      if (entry.kind === 'request' && !notesOf(entry).includes('client-closed') && typeof entry.fault !== 'string') {
        const request: OpenRequest = { session, seq: entry.seq, id: entry.id, dir: entry.dir, cancelled: false };
        if (lineNo !== undefined) request.lineNo = lineNo;
        if (method !== undefined) request.method = method;
        if (typeof entry.tool === 'string') request.tool = entry.tool;
        openIn(session).set(entry.seq, request);
      } else if (isAnswer(entry.kind) && entry.related) {
        find(session, entry.related.seq)?.[0].delete(entry.related.seq);
      } else if (entry.kind === 'invalid' && entry.id !== undefined) {
        // A malformed answer (result and error, a bad error object) still answered its request.
        const answered = byId(session, entry.dir === 'c2s' ? 's2c' : 'c2s', entry.id, true);
        answered?.[0].delete(answered[1].seq);
      } else if (method === 'notifications/cancelled') {
        const request = entry.related
          ? find(session, entry.related.seq)?.[1]
          : isExchangeSession(session)
            ? byId(session, entry.dir, pick(message, 'params', 'requestId'), false)?.[1]
            : undefined;
        if (request) request.cancelled = true;
        if (request && !entry.related) crossCancels.add(entry.seq);
      }
    },
    /** Whether the cancellation at `seq` named a request another stateless exchange carried (the spy could not tell it live). */
    cancelledElsewhere: (seq: number) => crossCancels.has(seq),
    /** The requests owed an answer that never came, oldest first: of one session, or of all. */
    unanswered(session?: string): OpenRequest[] {
      const tables = session === undefined ? [...sessions.values()] : [sessions.get(session) ?? new Map<number, OpenRequest>()];
      return tables.flatMap((open) => [...open.values()].filter((request) => !request.cancelled)).sort((a, b) => a.seq - b.seq);
    },
  };
}

export type OwedAnswers = ReturnType<typeof createOwedAnswers>;
