import { defaultMaxLine, formatSize } from '../wire/framing/limits.js';
import { createCaptureReader, isCaptureLine } from './capture.js';
import { readLines, type LineSourceOptions } from './line-source.js';
import { createCapturedAnalysis } from './captured.js';
import { readRecordLine, RecordReadError, type ReadItem } from './reader.js';
import type { RecordEntry } from './schema.js';

/** A line a reader skips, with why. */
export interface SkippedLine {
  lineNo: number;
  reason: string;
  /** Longer than the line limit: counted, never read. Anything else could not be understood. */
  tooLong: boolean;
  /** A whole entry of a kind this build does not know (no frame: nothing of it is sent or compared). */
  unknownKind?: boolean;
}

export interface RecordingOptions extends LineSourceOptions {
  /** A line that cannot be read ends the reading instead of being skipped. */
  strict?: boolean;
  /** Told of each line skipped, with its number. */
  onSkip?: (skip: SkippedLine) => void;
}

export interface RecordingEntry {
  lineNo: number;
  entry: RecordEntry;
  /** Where the entry's line starts in the file, in bytes, and its size: for a reader that reads it again. */
  offset?: number;
  length?: number;
}

type LineReader = (line: string, lineNo: number) => ReadItem[];

/** An mcp-spy wire.log line: a time, an arrow, a label. It is for people and cannot be read back. */
const renderedLine = /^(\d\d|\?\?):(\d\d|\?\?):\S+ (->|<-|\*\*|~~) /;

/** Picks the reader from the first line: a record (JSON Lines) or a plain capture. */
function chooseReader(path: string, line: string, lineNo: number): LineReader {
  if (line.trimStart().startsWith('{')) {
    const first = readRecordLine(line, lineNo, path);
    if (first.ok) return recordReader(path);
  }
  if (isCaptureLine(line)) return createCaptureReader();
  if (renderedLine.test(line)) {
    throw new RecordReadError(`${path} is a human log (wire.log), which cannot be read back; use the record written beside it (wire.jsonl)`);
  }
  throw new RecordReadError(`${path}: unknown format (line ${lineNo}): expected an mcp-spy record (wire.jsonl) or a "-> {json}" / "<- {json}" capture`);
}

/**
 * Reads the lines of a record, analysing each captured frame in its place (record/captured.ts), so
 * that every reader sees the entries of a fully analysed record.
 */
function recordReader(path: string): LineReader {
  const analysis = createCapturedAnalysis();
  return (text, lineNo) => {
    const item = readRecordLine(text, lineNo, path);
    if (!item.ok) return [item];
    return analysis.read(item.entry, text).map((entry) => ({ ok: true, lineNo, entry }));
  };
}

/** Why a line over the limit is skipped: its size and the limit, and how to read it anyway. */
export function tooLongReason(bytes: number, maxLine: number): string {
  return `a line of ${bytes} bytes, over the line limit of ${formatSize(maxLine)} (--max-line reads longer ones)`;
}

/**
 * Reads a recording of any format this build knows, in a stream: the record (all versions, migrated
 * on read) or a plain capture. A line that cannot be read, or is longer than the line limit, is
 * reported and skipped, unless strict.
 */
export async function* readRecording(path: string, options: RecordingOptions = {}): AsyncGenerator<RecordingEntry> {
  let reader: LineReader | undefined;
  const skip = (lineNo: number, reason: string, tooLong: boolean, unknownKind = false) => {
    if (options.strict) throw new RecordReadError(`${path}:${lineNo}: ${reason}`);
    options.onSkip?.({ lineNo, reason, tooLong, ...(unknownKind ? { unknownKind } : {}) });
  };
  for await (const item of readLines(path, options)) {
    if (item.line === undefined) {
      skip(item.lineNo, tooLongReason(item.bytes, options.maxLine ?? defaultMaxLine), true);
      continue;
    }
    reader ??= chooseReader(path, item.line, item.lineNo);
    for (const read of reader(item.line, item.lineNo)) {
      if (read.ok) yield { lineNo: read.lineNo, entry: read.entry, offset: item.offset, length: item.length };
      else skip(read.lineNo, read.reason, false, read.unknownKind === true);
    }
  }
}
