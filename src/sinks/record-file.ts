import { rawSplicedLine } from '../record/raw-bytes.js';
import { splicedLine } from '../record/record-line.js';
import type { Sink, SinkContext, SinkKind, SinkOutputs } from './sink.js';
import { openFileSink } from './file-sink.js';

/** The record (wire.jsonl): every entry as a JSON line, a frame's JSON spliced in as `msg`. */
function openRecordFile(outputs: SinkOutputs, context: SinkContext): Sink {
  return openFileSink(
    'record',
    outputs.recordPath!,
    { named: outputs.recordNamed ?? false, allowReadable: outputs.allowReadable ?? false },
    {
      // Pieces, not one string: a frame's bytes go in as they came (a JSON frame as `msg`, a cut
      // frame's kept part as `raw`), never copied into a string of the whole line.
      lineOf: (entry, _message, json, cut) =>
        json !== undefined ? splicedLine(entry, json) : cut !== undefined ? rawSplicedLine(entry, cut) : [JSON.stringify(entry), '\n'],
      captured: (line) => line,
      gapLine: (gap) => `${JSON.stringify(gap)}\n`,
      checkpoints: true,
    },
    context,
  );
}

export const recordFile: SinkKind = {
  wanted: (outputs) => outputs.recordPath !== undefined,
  load: async () => openRecordFile,
};
