import { splicedLine } from '../record/record-line.js';
import type { Sink, SinkContext, SinkKind, SinkOutputs } from './sink.js';
import { openFileSink } from './file-sink.js';

/** The record (wire.jsonl): every entry as a JSON line, a frame's JSON spliced in as `msg`. */
function openRecordFile(outputs: SinkOutputs, context: SinkContext): Sink {
  return openFileSink('record', outputs.recordPath!, { named: outputs.recordNamed ?? false, allowReadable: outputs.allowReadable ?? false }, {
    // Pieces, not one string: an entry holding a large cut frame (`raw`) is not copied once more to add its newline.
    lineOf: (entry, _message, json) => (json === undefined ? [JSON.stringify(entry), '\n'] : splicedLine(entry, json)),
    captured: (line) => line,
    gapLine: (gap) => `${JSON.stringify(gap)}\n`,
    checkpoints: true,
  }, context);
}

export const recordFile: SinkKind = {
  wanted: (outputs) => outputs.recordPath !== undefined,
  load: async () => openRecordFile,
};
