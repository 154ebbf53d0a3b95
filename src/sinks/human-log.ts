import { renderLine } from '../render/render-line.js';
import { isRoutine } from '../render/visibility.js';
import type { Sink, SinkContext, SinkKind, SinkOutputs } from './sink.js';
import { openFileSink } from './file-sink.js';
import { createShedding } from './shedding.js';

/** The human log (wire.log): each entry worth reading rendered as one line, as `view` shows it. */
function openHumanLog(outputs: SinkOutputs, context: SinkContext): Sink {
  const shedding = createShedding('this log', outputs.recordPath);
  const lineOf = (note: ReturnType<typeof shedding.last>) => (note ? `${renderLine(note)}\n` : undefined);
  return openFileSink(
    'log',
    outputs.logPath!,
    { named: outputs.logNamed ?? false, allowReadable: outputs.allowReadable ?? false },
    {
      lineOf: (entry, message) => (isRoutine(entry) || shedding.leavesOut(entry) ? undefined : `${renderLine(entry, { message })}\n`),
      captured: (_line, frames) => shedding.leftOutCaptured(frames),
      gapLine: (gap) => `${renderLine(gap)}\n`,
      behind: (behind) => lineOf(shedding.behind(behind)),
      lastLine: () => lineOf(shedding.last()),
    },
    context,
  );
}

export const humanLog: SinkKind = {
  wanted: (outputs) => outputs.logPath !== undefined,
  load: async () => openHumanLog,
};
