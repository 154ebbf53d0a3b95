import { closeSync } from 'node:fs';
import { openOutputFile } from '../record/open-output.js';
import { RECORD_VERSION, type RecordEntry } from '../record/schema.js';
import { writeLinesSync } from '../record/whole-lines.js';
import type { StdioOutcome } from '../transports/stdio.js';

export interface LastWords {
  named: boolean;
  allowReadable?: boolean;
  session: string;
  /** The last seq the observer wrote: these entries follow it. */
  lastSeq: number;
  outcome: StdioOutcome;
}

/**
 * When the observer could not finish (it did not answer in time), the record still gets its end:
 * a gap for everything after the observer's last entry, and the exit. Written from the forwarding
 * thread in one write of whole lines, as any appender does.
 */
export function appendLastWords(path: string, words: LastWords): void {
  const t = new Date().toISOString();
  const base = { v: RECORD_VERSION, t, session: words.session };
  const { outcome } = words;
  const entries: RecordEntry[] = [
    { ...base, seq: words.lastSeq + 1, kind: 'gap', reason: 'the observer did not finish in time; what followed this point was forwarded but not recorded' },
    outcome.started
      ? { ...base, seq: words.lastSeq + 2, kind: 'exit', code: outcome.code, signal: outcome.signal }
      : { ...base, seq: words.lastSeq + 2, kind: 'exit', code: null, signal: null, reason: outcome.why },
  ];
  const opened = openOutputFile(path, { named: words.named, allowReadable: words.allowReadable ?? false });
  if (!opened.ok) return;
  try {
    // Whole lines or none: on a full disk the record is cut back to its last whole line.
    writeLinesSync(opened.fd, Buffer.from(entries.map((entry) => `${JSON.stringify(entry)}\n`).join('')));
  } finally {
    closeSync(opened.fd);
  }
}
