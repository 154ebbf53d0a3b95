import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createLineFramer, framesIn, type LineFrame, spanLines } from '../../src/wire/framing/line-framer.js';

/** A full collection (the flag can be set at run time, as the spy's own GC pacing does). */
function collect() {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

function frame(chunks: (string | Buffer)[], max = 1024) {
  const framer = createLineFramer(max);
  const lines = chunks.flatMap((chunk) => framer.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)));
  const last = framer.end();
  return [...lines, ...(last ? [last] : [])].map((line) => ({
    text: line.bytes.toString('latin1'),
    eol: line.eol,
    size: line.size,
    truncated: line.truncated,
  }));
}

describe('createLineFramer', () => {
  it.each([
    ['one line', ['{"a":1}\n'], [{ text: '{"a":1}', eol: '\n', size: 7, truncated: false }]],
    [
      'two lines in one chunk',
      ['a\nb\n'],
      [
        { text: 'a', eol: '\n', size: 1, truncated: false },
        { text: 'b', eol: '\n', size: 1, truncated: false },
      ],
    ],
    ['a line split over chunks', ['{"a"', ':1', '}\n'], [{ text: '{"a":1}', eol: '\n', size: 7, truncated: false }]],
    ['CRLF', ['a\r\n'], [{ text: 'a', eol: '\r\n', size: 1, truncated: false }]],
    [
      'CRLF split between chunks',
      ['a\r', '\nb\n'],
      [
        { text: 'a', eol: '\r\n', size: 1, truncated: false },
        { text: 'b', eol: '\n', size: 1, truncated: false },
      ],
    ],
    [
      'blank lines',
      ['\n\na\n'],
      [
        { text: '', eol: '\n', size: 0, truncated: false },
        { text: '', eol: '\n', size: 0, truncated: false },
        { text: 'a', eol: '\n', size: 1, truncated: false },
      ],
    ],
    [
      'last line without newline',
      ['a\nb'],
      [
        { text: 'a', eol: '\n', size: 1, truncated: false },
        { text: 'b', eol: '', size: 1, truncated: false },
      ],
    ],
    ['a lone CR at EOF stays in the line', ['a\r'], [{ text: 'a\r', eol: '', size: 2, truncated: false }]],
  ])('%s', (_name, chunks, expected) => {
    expect(frame(chunks)).toEqual(expected);
  });

  it('keeps at most the limit of a long line but counts all of it', () => {
    const lines = frame(['x'.repeat(10), 'y'.repeat(10), '\nz\n'], 15);
    expect(lines[0]).toEqual({ text: 'x'.repeat(10) + 'y'.repeat(5), eol: '\n', size: 20, truncated: true });
    expect(lines[1]).toEqual({ text: 'z', eol: '\n', size: 1, truncated: false });
  });

  it('gets CRLF right on a truncated line', () => {
    const lines = frame(['abcdef\r\n'], 3);
    expect(lines[0]).toEqual({ text: 'abc', eol: '\r\n', size: 6, truncated: true });
  });

  it('passes bytes that are not UTF-8 untouched', () => {
    const [line] = frame([Buffer.from([0xff, 0xfe, 0x41, 0x0a])]);
    expect(Buffer.from(line!.text, 'latin1')).toEqual(Buffer.from([0xff, 0xfe, 0x41]));
  });

  it('holds no more than the limit while a huge line streams in', () => {
    const framer = createLineFramer(1024);
    for (let i = 0; i < 100; i++) framer.push(Buffer.alloc(64 * 1024, 0x61));
    expect(framer.pending).toBe(100 * 64 * 1024);
    const [line] = framer.push(Buffer.from('\n'));
    expect(line!.bytes.length).toBe(1024);
    expect(line!.size).toBe(100 * 64 * 1024);
  });
});

describe('a span of whole lines (capture)', () => {
  /** The lines `push` would give for `input` cut into `chunks`, against those of the spans `pushSpan` gives, with the last unfinished line. */
  function both(input: Buffer, cuts: number[], maxFrame = 1 << 20) {
    const pieces: Buffer[] = [];
    let from = 0;
    for (const cut of [...cuts, input.length]) {
      pieces.push(input.subarray(from, cut));
      from = cut;
    }
    const plain = createLineFramer(maxFrame);
    const lines = pieces.flatMap((piece) => plain.push(piece));
    const last = plain.end();
    const spanning = createLineFramer(maxFrame);
    const spanned: LineFrame[] = [];
    let frames = 0;
    for (const piece of pieces) {
      const span = spanning.pushSpan(piece);
      if (span) {
        spanned.push(...spanLines(span.bytes));
        frames += span.frames;
      } else spanned.push(...spanning.push(piece));
    }
    return { lines, last, spanned, frames, spanLast: spanning.end() };
  }

  it('gives the lines push gives, wherever the chunks are cut (CRLF and lines split across chunks, empty lines)', () => {
    const input = Buffer.from('{"a":1}\r\n\n{"b":2}\nplain text\r\n\r\n{"c":3}\nunfinished');
    for (let first = 0; first <= input.length; first++) {
      for (const second of [first, Math.min(input.length, first + 1), Math.min(input.length, first + 7)]) {
        const { lines, last, spanned, frames, spanLast } = both(input, [first, second]);
        expect(spanned).toEqual(lines);
        expect(spanLast).toEqual(last);
        expect(frames).toBe(lines.filter((line) => line.size > 0).length);
      }
    }
  });

  it('takes in a span lines up to the parse limit, however many a chunk holds', () => {
    const framer = createLineFramer(64);
    const lines = `${'a'.repeat(64)}\r\n${'b'.repeat(64)}\n`;
    expect(framer.pushSpan(Buffer.from(`${lines}${'c'.repeat(10)}`))).toEqual({ bytes: Buffer.from(lines), frames: 2 });
    expect(framer.pushSpan(Buffer.from('c'.repeat(54)))).toEqual({ bytes: Buffer.alloc(0), frames: 0 });
    expect(framer.pushSpan(Buffer.from('\nd\n'))).toEqual({ bytes: Buffer.from(`${'c'.repeat(64)}\nd\n`), frames: 2 });
  });

  it('leaves to push a chunk holding a line past the parse limit, and gives the lines push gives wherever the chunks are cut', () => {
    const framer = createLineFramer(8);
    expect(framer.pushSpan(Buffer.from(`a\n${'b'.repeat(9)}\nc\n`))).toBeUndefined();
    expect(framer.push(Buffer.from(`a\n${'b'.repeat(9)}\nc\n`)).map((line) => [line.size, line.truncated])).toEqual([
      [1, false],
      [9, true],
      [1, false],
    ]);
    // At the limit (its CR aside), past it, at it, empty, short, and an unfinished line past it.
    const input = Buffer.from(`${'a'.repeat(8)}\r\n${'b'.repeat(9)}\n${'c'.repeat(8)}\n\ndd\r\n${'e'.repeat(12)}`);
    for (let first = 0; first <= input.length; first++) {
      for (let second = first; second <= input.length; second++) {
        const { lines, last, spanned, spanLast } = both(input, [first, second], 8);
        expect(spanned).toEqual(lines);
        expect(spanLast).toEqual(last);
      }
    }
    expect(both(input, [], 8).lines.map((line) => line.truncated)).toEqual([false, true, false, false, false]);
  });

  it('counts as frames the lines that are not empty', () => {
    expect(framesIn(Buffer.from('a\n\n\r\nb\r\n'))).toBe(2);
    expect(framesIn(Buffer.from(''))).toBe(0);
  });

  it('leaves to push a line that may pass the limit, and one being cut', () => {
    const framer = createLineFramer(1024);
    expect(framer.pushSpan(Buffer.alloc(2000, 0x61))).toBeUndefined();
    // Nothing was fed: push takes that chunk, and cuts the line; the rest of it still goes to push.
    expect(framer.push(Buffer.alloc(2000, 0x61))).toEqual([]);
    expect(framer.pushSpan(Buffer.from('aaa\nb\n'))).toBeUndefined();
    expect(framer.push(Buffer.from('aaa\nb\n')).map((line) => [line.size, line.truncated])).toEqual([
      [2003, true],
      [1, false],
    ]);
    expect(framer.pushSpan(Buffer.from('c\n'))).toEqual({ bytes: Buffer.from('c\n'), frames: 1 });
    // A span is bounded apart from the parse limit: past that bound, the lines go to push.
    const bounded = createLineFramer(1 << 20);
    expect(bounded.pushSpan(Buffer.from('a'.repeat(200)), 256)).toEqual({ bytes: Buffer.alloc(0), frames: 0 });
    expect(bounded.pushSpan(Buffer.from(`${'b'.repeat(100)}\n`), 256)).toBeUndefined();
    expect(bounded.push(Buffer.from(`${'b'.repeat(100)}\n`)).map((line) => line.size)).toEqual([300]);
  });
});

describe('createLineFramer, a line of MiBs', () => {
  const MiB = 1024 * 1024;
  /** A line of `size` bytes (its ending apart) whose bytes tell their place, cut into 64 KiB chunks. */
  const longLine = (size: number, eol = '\n') => {
    const line = Buffer.alloc(size + eol.length);
    for (let at = 0; at < size; at++) line[at] = 0x30 + (at % 61);
    line.write(eol, size, 'latin1');
    const chunks: Buffer[] = [];
    for (let at = 0; at < line.length; at += 64 * 1024) chunks.push(line.subarray(at, at + 64 * 1024));
    return { line, chunks };
  };

  it('past the parse limit: its kept part gathered in one buffer as it comes, the chunks let go of', async () => {
    const limit = 16 * MiB;
    const framer = createLineFramer(limit);
    // 20 MiB in chunks of their own, each filled with a byte that tells its place; fed from a
    // function of its own, whose frame (unlike this suspended one's) holds none of them after.
    const fill = (index: number) => 0x30 + (index % 61);
    const feed = () => {
      const refs: WeakRef<ArrayBufferLike>[] = [];
      for (let index = 0; index < 320; index++) {
        const chunk = Buffer.alloc(64 * 1024, fill(index));
        // The chunk's memory: a view of part of it would keep it alive as well as the chunk itself.
        refs.push(new WeakRef(chunk.buffer));
        expect(framer.push(chunk)).toEqual([]);
      }
      return refs;
    };
    const sent = feed();
    // A WeakRef holds its target to the end of the task that made it.
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    // Held as they came, the 256 chunks of the kept part would all be alive until the line ends.
    expect(sent.flatMap((ref, index) => (ref.deref() === undefined ? [] : [index]))).toEqual([]);
    const [cut] = framer.push(Buffer.from('\r\n')) as [LineFrame];
    expect(cut).toMatchObject({ eol: '\r\n', size: 20 * MiB, truncated: true });
    expect(cut.bytes.length).toBe(limit);
    for (let index = 0; index < 256; index++)
      expect(cut.bytes.subarray(index * 64 * 1024, (index + 1) * 64 * 1024).equals(Buffer.alloc(64 * 1024, fill(index)))).toBe(true);
  });

  it('under the parse limit, whole, after it was gathered; and the next line, short, as before', () => {
    const { line, chunks } = longLine(6 * MiB);
    const framer = createLineFramer(16 * MiB);
    const lines = [...chunks, Buffer.from('{"b":2}\n')].flatMap((chunk) => framer.push(chunk));
    expect(lines.map((found) => [found.size, found.truncated])).toEqual([
      [6 * MiB, false],
      [7, false],
    ]);
    expect(lines[0]!.bytes.equals(line.subarray(0, 6 * MiB))).toBe(true);
    expect(lines[1]!.bytes.toString()).toBe('{"b":2}');
  });

  it('gathered, then ended by a span (capture), or thrown away by a resync', () => {
    const { line, chunks } = longLine(5 * MiB);
    const framer = createLineFramer(16 * MiB);
    for (const chunk of chunks.slice(0, -1)) expect(framer.pushSpan(chunk, 12 * MiB)).toEqual({ bytes: Buffer.alloc(0), frames: 0 });
    const span = framer.pushSpan(Buffer.concat([chunks.at(-1)!, Buffer.from('c\n')]), 12 * MiB)!;
    expect(span.frames).toBe(2);
    expect(span.bytes.equals(Buffer.concat([line, Buffer.from('c\n')]))).toBe(true);
    for (const chunk of chunks.slice(0, -1)) framer.push(chunk);
    framer.resync();
    expect(framer.takeDiscarded()).toBe(5 * MiB);
    expect(framer.push(Buffer.from('rest\nd\n')).map((found) => found.bytes.toString())).toEqual(['d']);
  });

  it('a parse limit past what is gathered: the chunks joined at the end', () => {
    const { line, chunks } = longLine(5 * MiB);
    const framer = createLineFramer(128 * MiB);
    const [whole] = chunks.flatMap((chunk) => framer.push(chunk)) as [LineFrame];
    expect(whole.bytes.equals(line.subarray(0, 5 * MiB))).toBe(true);
    expect(whole.bytes.buffer.byteLength).toBeLessThan(128 * MiB);
  });
});
