import { renderLine } from '../render/render-line.js';
import { isShownLive } from '../render/visibility.js';
import type { Sink, SinkContext, SinkKind, SinkOutputs } from './sink.js';
import type { StderrOut } from './stderr-out.js';

/** The live view on stderr: the entries worth showing, each on a line; dropped, not waited for, when stderr is slow. */
function openLiveView(outputs: SinkOutputs, _context: SinkContext, stderr: StderrOut): Sink {
  const { color, liveWidth: width } = outputs;
  return {
    entry(entry, message) {
      if (isShownLive(entry)) stderr.line(renderLine(entry, { color, message, width }));
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
