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
/** A line longer than this gathers its kept bytes in one buffer (see `gather`); up to a parse limit of `maxGathered`. */
const gatherPast = 4 * 1024 * 1024;
const maxGathered = 64 * 1024 * 1024;

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
  const mayGather = maxFrame <= maxGathered;
  let parts: Buffer[] = [];
  /** A long line's kept bytes, gathered as they come (see `gather`); then `parts` is empty. */
  let held: Buffer | undefined;
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
    if (held) part.copy(held, kept);
    else parts.push(part);
    kept += part.length;
    if (!held && mayGather && kept > gatherPast) gather();
  }

  /**
   * A line past `gatherPast` bytes may run to the parse limit: its kept bytes go into one buffer
   * of the limit's size, each chunk's as it comes (the pages not written to take no memory), rather
   * than be held as the chunks they came in and joined at the line's end. Joined, a cut line was
   * twice its kept part at once (the chunks, then their copy): 32 MiB each way for a 16 MiB limit.
   */
  function gather() {
    try {
      held = Buffer.allocUnsafeSlow(maxFrame);
    } catch {
      // No room for it (an address-space limit): the chunks are joined at the end, as before.
      return;
    }
    let at = 0;
    for (const part of parts) at += part.copy(held, at);
    parts = [];
  }

  /** The kept bytes of the unfinished line, in order. */
  const keptParts = (): Buffer[] => (held ? [held.subarray(0, kept)] : parts);

  /** The unfinished line is over (ended, taken in a span, or thrown away): nothing of it is held. */
  function forgetLine() {
    parts = [];
    held = undefined;
    kept = 0;
    size = 0;
    lastByte = -1;
  }

  function finish(atEof: boolean): LineFrame {
    const pieces = keptParts();
    let bytes = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, kept);
    const crlf = !atEof && lastByte === CR;
    const lineSize = crlf ? size - 1 : size;
    if (crlf && bytes.length > lineSize) bytes = bytes.subarray(0, lineSize);
    const frame: LineFrame = { bytes, eol: atEof ? '' : crlf ? '\r\n' : '\n', size: lineSize, truncated: lineSize > bytes.length };
    forgetLine();
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
      const bytes = kept === 0 ? whole : Buffer.concat([...keptParts(), whole], kept + whole.length);
      const frames = spanFrames(bytes, maxFrame);
      if (frames === -1) return undefined;
      forgetLine();
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
      forgetLine();
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
