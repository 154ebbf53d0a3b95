import { createCaptureReader, isCaptureLine } from './capture.js';
import { readLines, type LineSourceOptions } from './line-source.js';
import { parseRecordLine, RecordReadError, type ReadItem } from './reader.js';
import type { RecordEntry } from './schema.js';

export interface RecordingOptions extends LineSourceOptions {
  /** A line that cannot be read ends the reading instead of being skipped. */
  strict?: boolean;
  /** Told of each line skipped, with its number. */
  onSkip?: (skip: { lineNo: number; reason: string }) => void;
}

export interface RecordingEntry {
  lineNo: number;
  entry: RecordEntry;
}

type LineReader = (line: string, lineNo: number) => ReadItem[];

/** An mcp-spy wire.log line: a time, an arrow, a label. It is for people and cannot be read back. */
const renderedLine = /^(\d\d|\?\?):(\d\d|\?\?):\S+ (->|<-|\*\*|~~) /;

/** Picks the reader from the first line: a record (JSON Lines) or a plain capture. */
function chooseReader(path: string, line: string, lineNo: number): LineReader {
  if (line.trimStart().startsWith('{')) {
    const first = parseRecordLine(line, lineNo, path);
    if (first.ok) return (text, number) => [parseRecordLine(text, number, path)];
  }
  if (isCaptureLine(line)) return createCaptureReader();
  if (renderedLine.test(line)) {
    throw new RecordReadError(`${path} is a human log (wire.log), which cannot be read back; use the record written beside it (wire.jsonl)`);
  }
  throw new RecordReadError(`${path}: unknown format (line ${lineNo}): expected an mcp-spy record (wire.jsonl) or a "-> {json}" / "<- {json}" capture`);
}

/**
 * Reads a recording of any format this build knows, in a stream: the record (all versions, migrated
 * on read) or a plain capture. A line that cannot be read is reported and skipped, unless strict.
 */
export async function* readRecording(path: string, options: RecordingOptions = {}): AsyncGenerator<RecordingEntry> {
  let reader: LineReader | undefined;
  for await (const { line, lineNo } of readLines(path, options)) {
    reader ??= chooseReader(path, line, lineNo);
    for (const item of reader(line, lineNo)) {
      if (item.ok) {
        yield { lineNo: item.lineNo, entry: item.entry };
        continue;
      }
      if (options.strict) throw new RecordReadError(`${path}:${item.lineNo}: ${item.reason}`);
      options.onSkip?.({ lineNo: item.lineNo, reason: item.reason });
    }
  }
}
