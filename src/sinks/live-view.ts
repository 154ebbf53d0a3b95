import type { RecordEntry } from '../record/schema.js';
import { renderLine } from '../render/render-line.js';
import { isShownLive } from '../render/visibility.js';
import { createShedding } from './shedding.js';
import type { Sink, SinkContext, SinkKind, SinkOutputs } from './sink.js';
import type { StderrOut } from './stderr-out.js';

/**
 * The live view on stderr: the entries worth showing, each on a line; dropped, not waited for, when
 * stderr is slow. While the observer is behind, ordinary frames are left out, as in wire.log.
 */
function openLiveView(outputs: SinkOutputs, _context: SinkContext, stderr: StderrOut): Sink {
  const { color, liveWidth: width } = outputs;
  const shedding = createShedding('the live view', outputs.recordPath);
  const show = (note: RecordEntry | undefined) => note && stderr.line(renderLine(note, { color, width }));
  return {
    entry(entry, message) {
      if (isShownLive(entry) && !shedding.leavesOut(entry)) stderr.line(renderLine(entry, { color, message, width }));
    },
    captured: (_line, frames) => shedding.leftOutCaptured(frames),
    behind: (behind) => show(shedding.behind(behind)),
    async end() {
      show(shedding.last());
    },
    backlog: () => 0,
    caughtUp: () => Promise.resolve(),
    flush: () => Promise.resolve(),
    closeNow: () => {},
  };
}

export const liveView: SinkKind = {
  wanted: (outputs) => outputs.live,
  load: async () => openLiveView,
};
