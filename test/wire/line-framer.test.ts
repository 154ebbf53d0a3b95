import { describe, expect, it } from 'vitest';
import { createLineFramer } from '../../src/wire/framing/line-framer.js';

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
