import type { JsonRpcId } from '../../protocol/jsonrpc.js';
import type { PendingRequest } from './correlation.js';
import { RecentIds } from './recent-ids.js';

/**
 * How many request ids per direction are remembered to catch a `duplicate-id`, most recent first
 * kept: ids may never be reused within a session before 2026, but remembering every one costs ~58
 * bytes a request, without end in a long session. A duplicate of a pending or recent id is still
 * caught; reuse of one older than this many requests goes unnoticed.
 */
export const rememberedIds = 10_000;

/**
 * What a session keeps of the requests one direction sent, keyed by the ids themselves (a Map
 * tells the id 1 from the id "1"). Made on the direction's first request, and each table on its
 * first use: a stateless HTTP exchange makes a correlator for one request and its answer.
 */
export interface SentRequests {
  pending: Map<JsonRpcId, PendingRequest>;
  /** The ids last requested (before 2026: after that an answered id may come again). */
  recent?: RecentIds<JsonRpcId>;
  /** The progress tokens of pending requests, and the id of the request each belongs to. */
  progress?: Map<string | number, JsonRpcId>;
}

export function createSentRequests(): SentRequests {
  return { pending: new Map() };
}

/** Whether `id` is pending, or (when `recently`) was requested within the last `rememberedIds`. */
export function isTaken(sent: SentRequests, id: JsonRpcId, recently: boolean): boolean {
  return sent.pending.has(id) || (recently && (sent.recent?.has(id) ?? false));
}

/** A request sent: pending until answered; `remember` keeps its id among the recent ones. */
export function addPending(sent: SentRequests, request: PendingRequest, remember: boolean) {
  if (remember) {
    if (sent.recent) sent.recent.remember(request.id);
    else sent.recent = new RecentIds(rememberedIds, request.id);
  }
  sent.pending.set(request.id, request);
}

/** A request asked for progress with `token`. */
export function addProgressToken(sent: SentRequests, request: PendingRequest, token: string | number) {
  request.progressToken = token;
  (sent.progress ??= new Map()).set(token, request.id);
}

/** The pending request that asked for progress with `token`, if any. */
export function pendingByToken(sent: SentRequests | undefined, token: unknown): PendingRequest | undefined {
  if (typeof token !== 'string' && typeof token !== 'number') return undefined;
  const id = sent?.progress?.get(token);
  return id === undefined ? undefined : sent!.pending.get(id);
}

/** Takes the pending request `id` out, answered or withdrawn (`forget` forgets its id too). */
export function takePending(sent: SentRequests | undefined, id: JsonRpcId, forget = false): PendingRequest | undefined {
  if (!sent) return undefined;
  const request = sent.pending.get(id);
  if (request) sent.pending.delete(id);
  if (forget) sent.recent?.forget(id);
  if (request?.progressToken !== undefined) sent.progress?.delete(request.progressToken);
  return request;
}
