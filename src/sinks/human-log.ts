import { renderLine } from '../render/render-line.js';
import { isRoutine } from '../render/visibility.js';
import type { Sink, SinkContext, SinkKind, SinkOutputs } from './sink.js';
import { openFileSink } from './file-sink.js';

/** The human log (wire.log): each entry worth reading rendered as one line, as `view` shows it. */
function openHumanLog(outputs: SinkOutputs, context: SinkContext): Sink {
  return openFileSink('log', outputs.logPath!, outputs.logNamed ?? false, {
    lineOf: (entry, message) => (isRoutine(entry) ? undefined : `${renderLine(entry, { message })}\n`),
    gapLine: (gap) => `${renderLine(gap)}\n`,
  }, context);
}

export const humanLog: SinkKind = {
  wanted: (outputs) => outputs.logPath !== undefined,
  load: async () => openHumanLog,
};
