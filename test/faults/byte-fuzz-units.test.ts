// Byte fuzz of the stdio fault engine (nothing spawned): seeded random lines (JSON-RPC, noise, CRLF,
// bytes that are not UTF-8, a last line without newline) in random chunks. Lines no rule acts on come
// out as they went in, byte for byte, in order, whatever the chunks; the record is handed the same bytes.
import { describe, expect, it } from 'vitest';
import { createFaultMatcher } from '../../src/faults/matcher.js';
import { parseRule } from '../../src/faults/parse-rule.js';
import { seededRandom } from '../../src/faults/random.js';
import type { FaultRule } from '../../src/faults/rule-types.js';
import { createStdioFaults } from '../../src/faults/stdio-faults.js';

/** Seeded random input: lines of many shapes, and a way to cut it into chunks. */
function fuzzInput(seed: number) {
  const random = seededRandom(seed);
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
  const text = (length: number) => Array.from({ length }, () => pick(['a', 'é', '"', '\\', ' ', '{', '}', '😀', 'method', ':'])).join('');
  const shapes = [
    () =>
      Buffer.from(
        `${JSON.stringify({ jsonrpc: '2.0', id: Math.floor(random() * 100), method: pick(['tools/call', 'ping', 'resources/read']), params: { name: text(5), text: text(20) } })}\n`,
      ),
    () => Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: Math.floor(random() * 100), result: { text: text(30) } })}\r\n`),
    () => Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { data: text(10) } })}\n`),
    () => Buffer.from(`${text(15)}\n`),
    () => Buffer.from('\n'),
    () => Buffer.from([0xff, 0xfe, 0x22, 0x6d, 0x65, 0x74, 0x68, 0x6f, 0x64, 0x22, 0x0a]),
    () => Buffer.from(`[${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call' })}]\n`),
  ];
  const lines = Array.from({ length: 300 }, () => pick(shapes)());
  const input = Buffer.concat([...lines, Buffer.from(`{"jsonrpc":"2.0","method":"${text(4)}"`)]);
  const chunks: Buffer[] = [];
  for (let at = 0; at < input.length; ) {
    const size = 1 + Math.floor(random() * pick([3, 40, 700]));
    chunks.push(input.subarray(at, at + size));
    at += size;
  }
  return { input, chunks };
}

/** Runs chunks through the engine in one direction; what it wrote and what it handed to the record. */
function through(rules: FaultRule[], dir: 'c2s' | 's2c', chunks: Buffer[]) {
  const written: Buffer[] = [];
  const recorded: Buffer[] = [];
  const random = seededRandom(1);
  const faults = createStdioFaults(
    createFaultMatcher(rules, random),
    random,
    { write: (_, bytes) => written.push(Buffer.from(bytes)), disconnect: () => {} },
    {
      line: (_, bytes) => recorded.push(Buffer.from(bytes)),
      fault: () => {},
      stderr: () => {},
    },
  );
  for (const chunk of chunks) faults.chunk(dir, chunk);
  faults.end(dir, () => {});
  return { written: Buffer.concat(written), recorded: Buffer.concat(recorded) };
}

const neverMatches = [parseRule('resources/read uri=nothing://here: drop') as FaultRule];

describe('byte fuzz: the fault engine changes no byte a rule does not act on', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('seed %i, both directions, a rule that never matches', (seed) => {
    const { input, chunks } = fuzzInput(seed);
    for (const dir of ['c2s', 's2c'] as const) {
      const { written, recorded } = through(neverMatches, dir, chunks);
      expect(written.equals(input)).toBe(true);
      expect(recorded.equals(input)).toBe(true);
    }
  });
  it('a rule that acts on some lines leaves every other line as it was, in order', () => {
    const { input, chunks } = fuzzInput(9);
    const { written } = through([parseRule('ping: drop') as FaultRule], 'c2s', chunks);
    const lines = (bytes: Buffer) => bytes.toString('latin1').split(/(?<=\n)/);
    expect(lines(written)).toEqual(lines(input).filter((line) => !/^\{"jsonrpc":"2.0","id":\d+,"method":"ping"/.test(line)));
  });
});
