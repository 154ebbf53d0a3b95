import type { EventFields, EventKind } from '../../record/schema.js';
import type { TailEntry } from '../../sinks/last-words.js';
import type { RecordProgress } from './channel-messages.js';
import { causeInWords } from './finish-cause.js';

/** An event the forwarding side handed over: its message's number (from 1), and the bytes forwarded by then. */
export interface HandedEvent {
  number: number;
  forwarded: readonly number[];
  t: number;
  kind: EventKind;
  fields: EventFields<EventKind>;
}

/**
 * Why the observer left bytes unrecorded: what cut its finishing short (--drain-timeout, or a stop
 * signal), or `stopped`: its thread ended before it was told to finish (an error, a module missing).
 */
export type TailCause = string | { stopped: string };

/**
 * What the record lacks when the observer did not finish: the events it does not hold, in order,
 * each after a gap for the bytes of each stream forwarded before it and not in the record, and a
 * gap for the rest. `progress` is what the record holds; `streams` names the streams; `cause` is why
 * (see TailCause).
 */
export function unrecordedTail(
  events: readonly HandedEvent[],
  forwarded: readonly number[],
  progress: RecordProgress,
  streams: readonly (string | undefined)[],
  nowMs: number,
  cause: TailCause = '--drain-timeout',
): TailEntry[] {
  const why = typeof cause === 'string' ? `the observer did not finish in time ${causeInWords(cause)}` : `the observer stopped (${cause.stopped})`;
  const reason = `${why}; these bytes were forwarded but not recorded`;
  const accounted = [...progress.recorded];
  const tail: TailEntry[] = [];
  const gapsUpTo = (upTo: readonly number[], t: number) => {
    streams.forEach((stream, index) => {
      const lost = (upTo[index] ?? 0) - (accounted[index] ?? 0);
      if (lost <= 0) return;
      accounted[index] = upTo[index]!;
      tail.push({ kind: 'gap', t, reason, ...(stream === undefined ? {} : { stream }), lost });
    });
  };
  for (const event of events) {
    if (event.number <= progress.handled) continue;
    gapsUpTo(event.forwarded, event.t);
    tail.push({ ...event.fields, kind: event.kind, t: event.t });
  }
  gapsUpTo(forwarded, nowMs);
  return tail;
}
