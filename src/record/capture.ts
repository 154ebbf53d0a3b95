import { createCorrelator } from '../wire/correlate/correlate.js';
import { observeFrame } from '../wire/observe/observe-frame.js';
import { createRevisionMarks, entryOfObserved } from './record-line.js';
import type { ReadItem } from './reader.js';
import { RECORD_VERSION } from './schema.js';

/** A line of a plain capture: an arrow, a space, and the frame as it crossed the wire. */
const captureLine = /^(->|<-) ?(.*)$/;

export function isCaptureLine(line: string): boolean {
  return captureLine.test(line);
}

/**
 * Imports the plain `-> {json}` / `<- {json}` log that simple line-copying spies write: each frame
 * goes through the same pipeline as live traffic, so it is classified and annotated the same way.
 * Such a capture has no times, so its entries carry no `t` and no latency.
 */
export function createCaptureReader(session = 'capture') {
  const correlator = createCorrelator();
  let seq = 0;
  const revisions = createRevisionMarks();

  return (line: string, lineNo: number): ReadItem[] => {
    const match = captureLine.exec(line);
    if (!match) return [{ ok: false, lineNo, reason: 'not a "-> {json}" or "<- {json}" line', line }];
    const dir = match[1] === '->' ? 'c2s' : 's2c';
    const results = observeFrame({ bytes: Buffer.from(match[2]!, 'utf8') }, { dir, correlator, nextSeq: () => ++seq, timeMs: 0, transport: 'stdio' });
    return results.map((observed) => {
      const entry = entryOfObserved({ v: RECORD_VERSION, seq: observed.seq, session }, observed, match[2]!);
      // A capture has no times: no latency either.
      delete entry.latencyMs;
      revisions.mark(entry);
      return { ok: true, lineNo, entry };
    });
  };
}
