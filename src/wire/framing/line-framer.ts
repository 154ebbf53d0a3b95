/** One line read from a byte stream: the bytes (at most the limit) and how it ended. */
export interface LineFrame {
  /** The line without its ending, cut to the parse limit when longer. */
  bytes: Buffer;
  /** The line ending as seen: LF, CRLF, or nothing for a last line at EOF. */
  eol: '\n' | '\r\n' | '';
  /** Length of the whole line without its ending, kept bytes or not. */
  size: number;
  truncated: boolean;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * The lines of a span of whole lines (each with its ending) that are frames: not empty, a lone CR
 * aside; -1 when one of them is longer than `maxFrame` (the framer would cut it).
 */
function spanFrames(span: Buffer, maxFrame: number): number {
  let frames = 0;
  let start = 0;
  for (let newline = span.indexOf(LF); newline !== -1; newline = span.indexOf(LF, start)) {
    const size = newline > start && span[newline - 1] === CR ? newline - 1 - start : newline - start;
    if (size > maxFrame) return -1;
    if (size > 0) frames++;
    start = newline + 1;
  }
  return frames;
}

/** The lines of a span of whole lines (each with its ending) that are frames: not empty, a lone CR aside. */
export const framesIn = (span: Buffer): number => spanFrames(span, Number.POSITIVE_INFINITY);

/** Each line of a span of whole lines, as the framer would have cut it (empty ones too). */
export function* spanLines(span: Buffer): Generator<LineFrame> {
  let start = 0;
  for (let newline = span.indexOf(LF); newline !== -1; newline = span.indexOf(LF, start)) {
    const crlf = newline > start && span[newline - 1] === CR;
    const end = crlf ? newline - 1 : newline;
    yield { bytes: span.subarray(start, end), eol: crlf ? '\r\n' : '\n', size: end - start, truncated: false };
    start = newline + 1;
  }
}

/**
 * Splits a byte stream into lines without ever holding more than `maxFrame` bytes of one line,
 * so a huge line costs no memory beyond the limit. Chunks may split lines (and CRLF) anywhere.
 */
export function createLineFramer(maxFrame: number) {
  let parts: Buffer[] = [];
  let kept = 0;
  let size = 0;
  let lastByte = -1;
  let skipping = false;
  /** Bytes thrown away by a resync (the unfinished line, and what came before the next line ending). */
  let discarded = 0;

  function append(segment: Buffer) {
    if (segment.length === 0) return;
    size += segment.length;
    lastByte = segment[segment.length - 1]!;
    const room = maxFrame - kept;
    if (room <= 0) return;
    const part = segment.length > room ? segment.subarray(0, room) : segment;
    parts.push(part);
    kept += part.length;
  }

  function finish(atEof: boolean): LineFrame {
    let bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts, kept);
    const crlf = !atEof && lastByte === CR;
    const lineSize = crlf ? size - 1 : size;
    if (crlf && bytes.length > lineSize) bytes = bytes.subarray(0, lineSize);
    const frame: LineFrame = { bytes, eol: atEof ? '' : crlf ? '\r\n' : '\n', size: lineSize, truncated: lineSize > bytes.length };
    parts = [];
    kept = 0;
    size = 0;
    lastByte = -1;
    return frame;
  }

  return {
    /** Feeds a chunk; returns the lines it completed. */
    push(chunk: Buffer): LineFrame[] {
      const lines: LineFrame[] = [];
      let start = 0;
      let newline = chunk.indexOf(LF, start);
      if (skipping) {
        if (newline === -1) {
          discarded += chunk.length;
          return lines;
        }
        skipping = false;
        discarded += newline + 1;
        start = newline + 1;
        newline = chunk.indexOf(LF, start);
      }
      while (newline !== -1) {
        append(chunk.subarray(start, newline));
        lines.push(finish(false));
        start = newline + 1;
        newline = chunk.indexOf(LF, start);
      }
      if (start < chunk.length) append(chunk.subarray(start));
      return lines;
    },
    /**
     * Feeds a chunk and hands back the whole lines it completed as one span of bytes (the
     * unfinished line held before it, the chunk up to its last line ending), without cutting it into
     * lines: what capture writes at full speed. `frames` counts its lines that are frames (not
     * empty). Undefined, with nothing fed, when the span would pass `limit` bytes or hold a line
     * past the parse limit, when the chunk grows the unfinished line past it, or while a resync or
     * a cut line is under way: `push` takes the chunk then, and cuts such a line. The line a chunk
     * leaves unfinished is held as push holds it (cut at the parse limit).
     */
    pushSpan(chunk: Buffer, limit = Number.POSITIVE_INFINITY): { bytes: Buffer; frames: number } | undefined {
      if (skipping || kept !== size || size + chunk.length > limit) return undefined;
      const last = chunk.lastIndexOf(LF);
      if (last === -1) {
        if (size + chunk.length > maxFrame) return undefined;
        append(chunk);
        return { bytes: chunk.subarray(0, 0), frames: 0 };
      }
      const whole = chunk.subarray(0, last + 1);
      const bytes = parts.length === 0 ? whole : Buffer.concat([...parts, whole], kept + whole.length);
      const frames = spanFrames(bytes, maxFrame);
      if (frames === -1) return undefined;
      parts = [];
      kept = 0;
      size = 0;
      lastByte = -1;
      if (last + 1 < chunk.length) append(chunk.subarray(last + 1));
      return { bytes, frames };
    },
    /** At EOF: the last line when it had no newline. */
    end(): LineFrame | undefined {
      return size > 0 ? finish(true) : undefined;
    },
    /**
     * Counts bytes of the current line that were not handed over because the line is already past
     * the limit: they would not be kept anyway. `lastByte` keeps CRLF detection right.
     */
    skip(count: number, last: number) {
      if (count <= 0) return;
      if (skipping) {
        discarded += count;
        return;
      }
      size += count;
      lastByte = last;
    },
    /**
     * After bytes were lost: forget the unfinished line and skip to the next line ending, so no
     * frame is glued together from pieces that were never adjacent.
     */
    resync() {
      discarded += size;
      parts = [];
      kept = 0;
      size = 0;
      lastByte = -1;
      skipping = true;
    },
    /** Whether a resync still looks for the next line ending. */
    get resyncing(): boolean {
      return skipping;
    },
    /** Bytes thrown away by resyncs since last asked. */
    takeDiscarded(): number {
      const count = discarded;
      discarded = 0;
      return count;
    },
    /** Bytes of an unfinished line held so far. */
    get pending(): number {
      return size;
    },
  };
}

export type LineFramer = ReturnType<typeof createLineFramer>;
