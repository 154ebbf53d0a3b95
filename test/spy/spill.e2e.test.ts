import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountedBytes, readRecord } from '../helpers/faults.js';
import { runBin, tempDir } from '../helpers/spy.js';

// The spill: bytes the observer thread has no room for (it runs at a lower priority, and a flood
// through `cat` outruns it from the first chunk) go to a file of the forwarding side's, to be read
// back and captured, instead of becoming gaps.

const count = 100_000;
const calls = Array.from(
  { length: count },
  (_, id) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x'.repeat(200) } } })}\n`,
);
const input = Buffer.from(calls.join(''));

describe('the spill', () => {
  it('a flood of 30 MB of frames each way through cat: every frame in the record, no gap, no file left behind', async () => {
    const dir = tempDir().dir;
    const result = await runBin(['-q', '--record', 'w.jsonl', '--log', 'w.log', '--', 'cat'], { cwd: dir, input });
    expect(result.code).toBe(0);
    expect(result.stdout.equals(input)).toBe(true);
    const entries = readRecord(join(dir, 'w.jsonl'));
    expect(entries.filter((entry) => entry.kind === 'gap')).toEqual([]);
    expect(entries.map((entry) => entry.seq)).toEqual(entries.map((_, index) => index + 1));
    for (const dir of ['c2s', 's2c'] as const) {
      const frames = entries.filter((entry) => entry.dir === dir);
      expect(frames).toHaveLength(count);
      // Each in its place: the ids count up in both directions.
      expect(frames.every((entry, index) => (entry.msg as { id?: number } | undefined)?.id === index)).toBe(true);
      expect(accountedBytes(entries, dir)).toBe(input.length);
    }
    // The spill's file had no name from the moment it was open.
    expect(readdirSync(dir).sort()).toEqual(['w.jsonl', 'w.log']);
  });

  it('not with --capture never: what the observer has no room for is a gap, as before', async () => {
    const dir = tempDir().dir;
    const result = await runBin(['-q', '--capture', 'never', '--record', 'w.jsonl', '--no-log', '--', 'cat'], { cwd: dir, input });
    expect(result.code).toBe(0);
    const entries = readRecord(join(dir, 'w.jsonl'));
    const gaps = entries.filter((entry) => entry.kind === 'gap');
    expect(gaps.length).toBeGreaterThan(0);
    for (const dir of ['c2s', 's2c'] as const) expect(accountedBytes(entries, dir)).toBe(input.length);
  });
});
