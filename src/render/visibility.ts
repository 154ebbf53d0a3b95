import type { RecordEntry } from '../record/schema.js';

/**
 * Entries the record keeps that a person need not read line by line: an SSE priming event (every
 * POST's stream opens with one) and a plain 202 to a posted notification or response. wire.log and
 * the live view leave them out; `view --full` shows them.
 */
export function isRoutine(entry: RecordEntry): boolean {
  if (entry.kind !== 'http' || entry.reason !== undefined) return false;
  const priming = entry.status === undefined && typeof entry.summary === 'string' && entry.summary.startsWith('SSE priming event');
  const accepted = entry.httpMethod === 'POST' && entry.status === 202 && entry.summary === 'Accepted';
  return priming || accepted;
}

/**
 * Whether the live view prints an entry: not the server's stderr (it passes through as it is), not
 * a routine entry, and not the exit of a server that never started (the spy says why in one line).
 */
export function isShownLive(entry: RecordEntry): boolean {
  if (entry.kind === 'stderr' || isRoutine(entry)) return false;
  return !(entry.kind === 'exit' && entry.code === null && typeof entry.reason === 'string');
}
