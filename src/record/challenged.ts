import type { RecordEntry } from './schema.js';

/**
 * The requests an `http` event says an auth challenge refused (a 401 with WWW-Authenticate): they
 * were never taken, so they are not unanswered; the client sends them again once authorized.
 */
export function challengedSeqs(entry: RecordEntry): number[] {
  if (entry.kind !== 'http' || entry.challenge === undefined || !Array.isArray(entry.requests)) return [];
  return entry.requests.flatMap((request) => (typeof request?.seq === 'number' ? [request.seq] : []));
}
