import { entryTime } from '../record/entry-fields.js';
import { frameText, isFrameEntry } from '../record/frame-message.js';
import type { RecordEntry } from '../record/schema.js';
import { multiRoundMethods } from '../wire/correlate/round-trips.js';

/** A 2026-07-28 call that took several rounds (input_required, then retries): the whole and each round. */
export interface MultiRoundCall {
  session?: string;
  /** The call's first request. */
  seq: number;
  id: unknown;
  method: string;
  tool?: string;
  rounds: number;
  /** From the first request to the result that completed the call. */
  totalMs: number;
  /** The latency of each round, in order. */
  roundMs: number[];
  /** The last round asked for input again and no retry came. */
  unfinished?: true;
}

interface Started {
  session?: string;
  seq: number;
  id: unknown;
  method: string;
  tool?: string;
  timeMs: number;
}

// An untimed entry (a plain capture) counts as time 0: its rounds then take no time, as they did.
const timeOf = (entry: RecordEntry) => entryTime(entry) ?? 0;
const asksInput = (entry: RecordEntry) => entry.kind === 'response' && (frameText(entry)?.includes('"input_required"') ?? false);

/** Follows the rounds of multi-round-trip calls through a recording, as `related` links them. */
export function createRoundStats() {
  const started = new Map<string, Started>();
  const open = new Map<string, { start: Started; roundMs: number[] }>();
  /** A retry's seq to its call's first request. */
  const retries = new Map<string, string>();
  const calls: MultiRoundCall[] = [];
  const keyOf = (entry: RecordEntry, seq: number) => `${String(entry.session ?? '')}|${seq}`;

  function finish(start: Started, roundMs: number[], endMs: number, unfinished = false) {
    const call: MultiRoundCall = {
      session: start.session,
      seq: start.seq,
      id: start.id,
      method: start.method,
      rounds: roundMs.length,
      totalMs: Math.round((endMs - start.timeMs) * 10) / 10,
      roundMs,
    };
    if (start.tool !== undefined) call.tool = start.tool;
    if (unfinished) call.unfinished = true;
    calls.push(call);
  }

  return {
    add(entry: RecordEntry) {
      if (entry.kind === 'request' && entry.dir === 'c2s' && typeof entry.method === 'string' && multiRoundMethods.has(entry.method)) {
        const round = (entry.related as { round?: unknown } | undefined)?.round;
        if (typeof round === 'number' && entry.related) retries.set(keyOf(entry, entry.seq), keyOf(entry, entry.related.seq));
        else
          started.set(keyOf(entry, entry.seq), {
            session: entry.session,
            seq: entry.seq,
            id: entry.id,
            method: entry.method,
            tool: entry.tool,
            timeMs: timeOf(entry),
          });
        return;
      }
      if (!isFrameEntry(entry) || entry.dir !== 's2c' || !entry.related || entry.kind === 'notification') return;
      const requestKey = keyOf(entry, entry.related.seq);
      const latency = typeof entry.latencyMs === 'number' ? entry.latencyMs : 0;
      const first = started.get(requestKey);
      if (first) {
        started.delete(requestKey);
        if (asksInput(entry)) open.set(requestKey, { start: first, roundMs: [latency] });
        return;
      }
      const originKey = retries.get(requestKey);
      const call = originKey !== undefined ? open.get(originKey) : undefined;
      if (!call || originKey === undefined) return;
      retries.delete(requestKey);
      call.roundMs.push(latency);
      if (asksInput(entry)) return;
      open.delete(originKey);
      finish(call.start, call.roundMs, timeOf(entry));
    },
    /** Calls that took more than one round, or asked for input and were never retried. */
    result(): MultiRoundCall[] {
      const left = [...open.values()].map(({ start, roundMs }) => ({ start, roundMs }));
      for (const { start, roundMs } of left) finish(start, roundMs, start.timeMs + roundMs.reduce((sum, ms) => sum + ms, 0), true);
      return calls.sort((a, b) => a.seq - b.seq);
    },
  };
}
