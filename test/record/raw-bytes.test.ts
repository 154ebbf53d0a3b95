import { describe, expect, it } from 'vitest';
import { escapedPieces, rawSplicedLine } from '../../src/record/raw-bytes.js';

// A cut frame's record line is written from its bytes: it must be byte for byte the line
// JSON.stringify makes of the entry with its `raw`, whatever the bytes hold and wherever the pieces fall.

const entry = { v: 2, seq: 7, t: '2026-01-01T00:00:00.000Z', dir: 's2c', kind: 'invalid', notes: ['frame-too-large'], bytes: 9, truncated: true };
const lineOf = (bytes: Buffer) => Buffer.concat(rawSplicedLine(entry, bytes).map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece)));
const expected = (bytes: Buffer) => Buffer.from(`${JSON.stringify({ ...entry, raw: bytes.toString('utf8') })}\n`);

/** Every ASCII byte, control characters, quote and backslash among them, then multi-byte characters. */
const everyByte = Buffer.concat([Buffer.from(Array.from({ length: 128 }, (_, byte) => byte)), Buffer.from('é 😀 \u2028 ✓', 'utf8')]);

describe("a cut frame's record line from its bytes", () => {
  it('is what JSON.stringify writes, for every ASCII byte and multi-byte characters', () => {
    expect(lineOf(everyByte).equals(expected(everyByte))).toBe(true);
  });

  it('is the same over many pieces, escapes and multi-byte characters falling on their edges', () => {
    const bytes = Buffer.alloc(3 * 64 * 1024 + 5, 'x');
    for (const at of [0, 65_535, 65_536, 131_071, 131_072, bytes.length - 1]) bytes[at] = 0x22;
    Buffer.from('é😀', 'utf8').copy(bytes, 65_534);
    expect(lineOf(bytes).equals(expected(bytes))).toBe(true);
  });

  it('copies no piece that needs no escape: a run of them is the bytes themselves', () => {
    const bytes = Buffer.alloc(5 * 64 * 1024, 'y');
    bytes[2 * 64 * 1024 + 3] = 0x5c;
    const pieces = escapedPieces(bytes);
    expect(pieces).toHaveLength(3);
    expect(pieces[0]!.buffer).toBe(bytes.buffer);
    expect(pieces[2]!.buffer).toBe(bytes.buffer);
    expect(Buffer.concat(pieces).toString()).toBe(JSON.stringify(bytes.toString()).slice(1, -1));
  });
});
