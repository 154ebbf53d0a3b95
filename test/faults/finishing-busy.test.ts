import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordEntry } from '../../src/record/schema.js';
import { accountedBytes, readRecord } from '../helpers/faults.js';
import { runBin, tempDir } from '../helpers/spy.js';

// What the observer made is never thrown away when finishing runs out of time: on a machine so
// busy that the observer thread (at a low priority) hardly runs, or with a drain timeout too short
// to observe everything, the record still begins with the spawn, holds every entry made in
// order, and counts every byte it does not hold in a gap that says which stream and how many.

const tinyLines = Buffer.from('{}\n'.repeat(Math.floor((1024 * 1024) / 3)));

/** The spawn first, seq 1, 2, 3 ... with no hole, every gap with its stream and count, every byte a frame or counted, the exit last. */
function expectWhole(entries: RecordEntry[], bytes: number) {
  expect(entries[0]).toMatchObject({ seq: 1, kind: 'spawn' });
  expect(entries.map((entry) => entry.seq)).toEqual(entries.map((_, index) => index + 1));
  expect(entries.filter((entry) => entry.kind !== 'unanswered').at(-1)).toMatchObject({ kind: 'exit', code: 0 });
  for (const gap of entries.filter((entry) => entry.kind === 'gap')) {
    expect(gap.stream, JSON.stringify(gap)).toMatch(/^(c2s|s2c|stderr)$/);
    expect(gap.lost, JSON.stringify(gap)).toBeGreaterThan(0);
  }
  expect(accountedBytes(entries, 'c2s')).toBe(bytes);
  expect(accountedBytes(entries, 's2c')).toBe(bytes);
}

/** Runs 1 MiB of 3-byte lines through `cat` under the spy; returns the record's entries. */
async function recordTinyLines(args: string[]): Promise<RecordEntry[]> {
  const dir = tempDir().dir;
  const result = await runBin(['-q', '--record', 'w.jsonl', ...args, '--', 'cat'], { cwd: dir, input: tinyLines });
  expect(result.code).toBe(0);
  expect(result.stdout.equals(tinyLines)).toBe(true);
  return readRecord(join(dir, 'w.jsonl'));
}

const hogs: ChildProcess[] = [];

afterEach(() => {
  for (const hog of hogs.splice(0)) hog.kill('SIGKILL');
});

/** Two processes that spin on the CPU (`yes` to /dev/null), as a busy machine has; resolves once they run. */
async function startHogs() {
  for (let index = 0; index < 2; index++) {
    const hog = spawn('yes', [], { stdio: ['ignore', 'ignore', 'ignore'] });
    hogs.push(hog);
    await new Promise((resolve, reject) => hog.once('spawn', resolve).once('error', reject));
  }
}

describe('finishing when time runs out keeps what was observed', () => {
  it('with two CPU hogs beside it: the spawn and every frame are in the record or counted in a gap', async () => {
    await startHogs();
    expectWhole(await recordTinyLines([]), tinyLines.length);
  });

  it('with a drain timeout too short to observe it all: the same, on a quiet machine', async () => {
    const entries = await recordTinyLines(['--drain-timeout', '1ms']);
    expectWhole(entries, tinyLines.length);
    expect(entries.some((entry) => entry.kind === 'gap' && entry.reason?.includes('--drain-timeout'))).toBe(true);
  });
});
