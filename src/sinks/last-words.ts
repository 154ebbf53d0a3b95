import { closeSync } from 'node:fs';
import { openOutputFile } from '../record/open-output.js';
import { RECORD_VERSION, type EventKind, type RecordEntry } from '../record/schema.js';
import type { SinkOutputs } from './sink.js';
import { pipeWaitMs, writeLinesSync } from './whole-lines.js';

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

/** The record's entries for `words.tail`, numbered on from `words.lastSeq`. */
function tailEntries(words: Pick<LastWords, 'session' | 'lastSeq' | 'tail'>): RecordEntry[] {
  return words.tail.map((item, index) => {
    const { kind, t, ...fields } = item;
    return {
      v: RECORD_VERSION,
      seq: words.lastSeq + 1 + index,
      t: new Date(t).toISOString(),
      ...(words.session === undefined ? {} : { session: words.session }),
      kind,
      ...fields,
    } as RecordEntry;
  });
}

/** Appends `lines` to `path` in one write of whole lines, as any appender does (never through a planted link for a default path). */
function appendLines(path: string, named: boolean, allowReadable: boolean, lines: string[]): void {
  if (lines.length === 0) return;
  const opened = openOutputFile(path, { named, allowReadable });
  if (!opened.ok) return;
  try {
    // Whole lines or none: on a full disk the file is cut back to its last whole line. A full pipe's
    // reader (a FIFO read on, slower than the traffic came) gets a moment to take them.
    writeLinesSync(opened.fd, Buffer.from(lines.join('')), pipeWaitMs);
  } finally {
    closeSync(opened.fd);
  }
}

const recordLine = (entry: RecordEntry) => `${JSON.stringify(entry)}\n`;

/**
 * When the observer could not finish (it did not answer in time), the record still gets its end:
 * after the last entry the observer wrote, the events it did not write (the spawn, the exit) and a
 * gap with its count for each stream's bytes it did not record. Written from the forwarding thread
 * in one write of whole lines, as any appender does.
 */
export function appendLastWords(path: string, words: LastWords): void {
  appendLines(path, words.named, words.allowReadable ?? false, tailEntries(words).map(recordLine));
}

/**
 * The end of the record and of the log when the observer did not finish (time ran out) or stopped
 * (its thread failed): the record gets its last words, and the log the same entries as its lines,
 * so that neither ends in silence. Said once on stderr.
 */
export async function writeLastWords(
  outputs: SinkOutputs,
  finished: { lastSeq: number; tail: readonly TailEntry[]; stopped?: string },
  session: string | undefined,
  warn: (message: string) => void,
): Promise<void> {
  const { recordPath, logPath } = outputs;
  if (recordPath === undefined && logPath === undefined) return;
  warn(
    finished.stopped === undefined
      ? 'the observer did not finish in time; the record ends with a gap for what it did not record'
      : 'the record ends with a gap for what the observer did not record',
  );
  const entries = tailEntries({ session, lastSeq: finished.lastSeq, tail: finished.tail });
  const allowReadable = outputs.allowReadable ?? false;
  if (recordPath !== undefined) appendLines(recordPath, outputs.recordNamed ?? false, allowReadable, entries.map(recordLine));
  if (logPath === undefined || entries.length === 0) return;
  const { renderLine } = await import('../render/render-line.js');
  appendLines(
    logPath,
    outputs.logNamed ?? false,
    allowReadable,
    entries.map((entry) => `${renderLine(entry)}\n`),
  );
}
