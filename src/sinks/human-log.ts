import { RECORD_VERSION, type RecordEntry } from '../record/schema.js';
import { renderLine } from '../render/render-line.js';
import { isRoutine } from '../render/visibility.js';
import type { Sink, SinkContext, SinkKind, SinkOutputs } from './sink.js';
import { openFileSink } from './file-sink.js';

/** A frame that says something is wrong: logged even while the observer is behind. */
function isTrouble(entry: RecordEntry): boolean {
  return entry.kind === 'invalid' || entry.kind === 'protocol-error' || entry.kind === 'tool-error' || (entry.notes !== undefined && entry.notes.length > 0);
}

/**
 * The human log (wire.log): each entry worth reading rendered as one line, as `view` shows it.
 * Rendering is a third of what observing a frame costs. While the observer is behind the traffic
 * and a record is written, the log leaves out ordinary frames (the record has them, and `view`
 * renders them the same) and then says how many: the record stays whole for longer.
 */
function openHumanLog(outputs: SinkOutputs, context: SinkContext): Sink {
  const record = outputs.recordPath;
  let shedding = false;
  let leftOut = 0;
  const leftOutLine = () => {
    if (leftOut === 0) return undefined;
    const text = `the observer was behind the traffic: ${leftOut} ordinary frame(s) left out of this log; the record has them all (mcp-spy view ${record})`;
    leftOut = 0;
    const note: RecordEntry = { v: RECORD_VERSION, seq: 0, t: new Date().toISOString(), kind: 'note', text };
    return `${renderLine(note)}\n`;
  };
  return openFileSink('log', outputs.logPath!, outputs.logNamed ?? false, {
    lineOf: (entry, message) => {
      if (isRoutine(entry)) return undefined;
      if (shedding && entry.dir !== undefined && !isTrouble(entry)) {
        leftOut++;
        return undefined;
      }
      return `${renderLine(entry, { message })}\n`;
    },
    gapLine: (gap) => `${renderLine(gap)}\n`,
    behind: (behind) => {
      // Without a record, the log is all there is: it leaves nothing out.
      shedding = behind && record !== undefined;
      return behind ? undefined : leftOutLine();
    },
    lastLine: leftOutLine,
  }, context);
}

export const humanLog: SinkKind = {
  wanted: (outputs) => outputs.logPath !== undefined,
  load: async () => openHumanLog,
};
