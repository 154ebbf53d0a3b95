import { closeSync } from 'node:fs';
import { openOutputFile } from '../record/open-output.js';
import { RECORD_VERSION, type EventKind } from '../record/schema.js';
import { writeLinesSync } from './whole-lines.js';

/** One entry of the record's end written by the forwarding side (numbered and stamped as it is written; `t` in epoch ms). */
export type TailEntry = { kind: EventKind; t: number; [field: string]: unknown };

export interface LastWords {
  named: boolean;
  allowReadable?: boolean;
  /** The run's session (stdio); the HTTP spy's own events belong to none. */
  session?: string;
  /** The last seq the record holds: these entries follow it. */
  lastSeq: number;
  /** What the record lacks: the events it does not hold and gaps for the bytes it does not, in order. */
  tail: readonly TailEntry[];
}

/**
 * When the observer could not finish (it did not answer in time), the record still gets its end:
 * after the last entry the observer wrote, the events it did not write (the spawn, the exit) and a
 * gap with its count for each stream's bytes it did not record. Written from the forwarding thread
 * in one write of whole lines, as any appender does.
 */
export function appendLastWords(path: string, words: LastWords): void {
  if (words.tail.length === 0) return;
  const lines = words.tail.map((item, index) => {
    const { kind, t, ...fields } = item;
    const entry = {
      v: RECORD_VERSION,
      seq: words.lastSeq + 1 + index,
      t: new Date(t).toISOString(),
      ...(words.session === undefined ? {} : { session: words.session }),
      kind,
      ...fields,
    };
    return `${JSON.stringify(entry)}\n`;
  });
  const opened = openOutputFile(path, { named: words.named, allowReadable: words.allowReadable ?? false });
  if (!opened.ok) return;
  try {
    // Whole lines or none: on a full disk the record is cut back to its last whole line.
    writeLinesSync(opened.fd, Buffer.from(lines.join('')));
  } finally {
    closeSync(opened.fd);
  }
}
