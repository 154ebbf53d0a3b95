// Byte fuzz of the stdio spy, end to end: seeded random bytes (any value, lines of any length, CRLF,
// text that names a method) through `mcp-spy -- cat`, with no fault option and with a rule that never
// matches. What comes out is what went in, byte for byte; the record is whole lines of JSON.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/faults/random.js';
import { readRecord } from '../helpers/faults.js';
import { runBin, tempDir } from '../helpers/spy.js';

function randomBytes(seed: number, length: number): Buffer {
  const random = seededRandom(seed);
  const bytes = Buffer.alloc(length);
  for (let at = 0; at < length; at++) {
    const roll = random();
    bytes[at] = roll < 0.02 ? 0x0a : roll < 0.03 ? 0x0d : Math.floor(random() * 256);
  }
  // Some lines that look like JSON-RPC (a rule reads those), the last one without its newline.
  const framed = Array.from(
    { length: 200 },
    (_, i) => `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"n${i}"}}${i % 3 ? '\n' : '\r\n'}`,
  ).join('');
  return Buffer.concat([bytes.subarray(0, length / 2), Buffer.from(framed), bytes.subarray(length / 2), Buffer.from('{"method":"last"')]);
}

describe('byte fuzz: the stdio spy changes no byte without a rule that acts on it', () => {
  it.each([
    ['no fault option', 11, []],
    ['a rule that never matches', 12, ['--fault', 'resources/read uri=nothing://here: drop', '--seed', '1']],
  ])('%s (seed %i)', async (_name, seed, faults) => {
    const input = randomBytes(seed, 512 * 1024);
    const dir = tempDir().dir;
    const result = await runBin(['-q', '--record', 'r.jsonl', '--log', 'r.log', ...faults, '--', 'cat'], { input, cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout.length).toBe(input.length);
    expect(result.stdout.equals(input)).toBe(true);
    expect(readRecord(join(dir, 'r.jsonl')).some((entry) => entry.method === 'tools/call')).toBe(true);
  });
});
