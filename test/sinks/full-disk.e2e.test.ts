import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRecord } from '../helpers/faults.js';
import { bin, node, runBin, tempDir } from '../helpers/spy.js';

// A full disk (or a file size limit) must cost the files no torn line: each keeps whole lines and,
// where it still takes one, a gap that says what it lost; the next run appending starts on a new line.
const calls = Array.from(
  { length: 4000 },
  (_, index) => `${JSON.stringify({ jsonrpc: '2.0', id: index + 1, method: 'tools/call', params: { name: 'pad', arguments: { text: 'y'.repeat(300) } } })}\n`,
).join('');

/** A 2 MiB tmpfs, or why there is none (mounting needs root and a kernel that lets the container mount). */
function smallDisk(): { dir: string; why?: string } {
  const dir = tempDir().dir;
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir], { encoding: 'utf8' });
  return mounted.status === 0 ? { dir } : { dir, why: `cannot mount a tmpfs: ${mounted.stderr.trim() || mounted.error?.message}` };
}
const disk = smallDisk();
afterAll(() => {
  if (!disk.why) spawnSync('umount', [disk.dir]);
});
if (disk.why) console.warn(`full-disk tests on a tmpfs skipped: ${disk.why}`);

/** Every line of a log: the file ends with a newline (no torn line). */
function logLines(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text.split('\n').slice(0, -1);
}

describe.skipIf(disk.why !== undefined)('a full disk', () => {
  it('tears neither the record nor the log: whole lines, each with a gap that says what it lost', async () => {
    const record = join(disk.dir, 'wire.jsonl');
    const log = join(disk.dir, 'wire.log');
    // Every frame analysed, so that the log fills the disk too (captured, the frames would be left out of the log).
    const result = await runBin(['-q', '--capture', 'never', '--record', record, '--log', log, '--', 'cat'], { input: calls });
    expect(result.code).toBe(0);
    expect(result.text).toBe(calls);
    expect(result.stderr).toMatch(/cannot write (record|log) .*ENOSPC.*stops here \(\d+ entries not written\)/);
    const entries = readRecord(record);
    expect(entries.at(-1)).toMatchObject({ kind: 'gap', reason: expect.stringContaining('failed: ENOSPC'), lost: expect.any(Number) });
    expect(logLines(log).at(-1)).toMatch(/\*\* GAP .* failed: ENOSPC; what followed was not written to it lost=\d+$/);
  });

  it('a spill that fills the disk: the traffic intact, the record in whole lines with its gaps, nothing left on the disk but the record', async () => {
    // The disk to itself: what the test before left there is gone.
    for (const name of readdirSync(disk.dir)) rmSync(join(disk.dir, name));
    const free = statfsSync(disk.dir).bfree;
    const record = join(disk.dir, 'spilled.jsonl');
    // Far more than the disk holds, faster than the observer: what it has no room for goes to the spill, beside the record.
    const flood = Buffer.from(calls.repeat(6));
    const result = await runBin(['-q', '--record', record, '--no-log', '--', 'cat'], { input: flood });
    expect(result.code).toBe(0);
    expect(result.stdout.equals(flood)).toBe(true);
    const text = readFileSync(record, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const entries = readRecord(record);
    // The spill left the record its room (it takes a share of the free space only): frames, then the gaps.
    expect(entries.filter((entry) => entry.dir !== undefined).length).toBeGreaterThan(1000);
    expect(entries.some((entry) => entry.kind === 'gap')).toBe(true);
    // The spill's file had no name on the disk, and its space is free again.
    expect(readdirSync(disk.dir)).toEqual(['spilled.jsonl']);
    rmSync(record);
    expect(statfsSync(disk.dir).bfree).toBe(free);
  });
});

describe('a torn record', () => {
  it('the next run appending to a torn record starts on a new line, with a note that the record ended torn', async () => {
    const record = join(tempDir().dir, 'wire.jsonl');
    // What a spy killed mid-write, or one of an older version on a full disk, leaves behind.
    const torn = '{"v":2,"seq":1,"t":"2026-01-01T00:00:00.000Z","session":"old","kind":"spawn","transport":"stdio","comm';
    writeFileSync(record, torn);
    const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}\n';
    const result = await runBin(['-q', '--record', record, '--no-log', '--', 'cat'], { input: ping });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`record ${record} ended mid-line (a run before this one was cut short); this run starts on a new line`);
    const [first, ...rest] = readFileSync(record, 'utf8').split('\n');
    expect(first).toBe(torn);
    const path = join(tempDir().dir, 'rest.jsonl');
    writeFileSync(path, rest.join('\n'));
    const entries = readRecord(path);
    expect(entries[0]).toMatchObject({ kind: 'note', notes: ['torn-line'] });
    expect(entries[1]).toMatchObject({ kind: 'spawn', command: ['cat'] });
    expect(entries.some((entry) => entry.kind === 'request' && entry.id === 1)).toBe(true);
  });
});

describe('a file size limit (RLIMIT_FSIZE)', () => {
  it('cuts each file back to its last whole line, and makes room there for the gap', async () => {
    const dir = tempDir().dir;
    const record = join(dir, 'wire.jsonl');
    const log = join(dir, 'wire.log');
    // 256 KiB a file: the limit is exact to the byte, so the gap must make its own room.
    const limited = spawnSync('prlimit', ['--fsize=262144', node, bin, '-q', '--capture', 'never', '--record', record, '--log', log, '--', 'cat'], {
      input: calls,
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(limited.status).toBe(0);
    expect(limited.stdout.toString()).toBe(calls);
    expect(limited.stderr.toString()).toMatch(/cannot write record .*EFBIG/);
    const entries = readRecord(record);
    expect(entries.at(-1)).toMatchObject({ kind: 'gap', reason: expect.stringContaining('failed: EFBIG'), lost: expect.any(Number) });
    expect(logLines(log).at(-1)).toMatch(/\*\* GAP .* failed: EFBIG; what followed was not written to it lost=\d+$/);
  });
});
