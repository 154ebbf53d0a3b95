import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { accountedBytes, readRecord } from '../helpers/faults.js';
import { runBin, tempDir } from '../helpers/spy.js';

// Behind the traffic, the stdio spy captures frames (their bytes, spliced verbatim) rather than
// analyse them, and readers analyse them as they read: the record keeps frames instead of gaps.

const tinyLines = Buffer.from('{}\n'.repeat(Math.floor((1024 * 1024) / 3)));
const hogs: ChildProcess[] = [];

afterEach(() => {
  for (const hog of hogs.splice(0)) hog.kill('SIGKILL');
});

async function startHogs() {
  for (let index = 0; index < 2; index++) {
    const hog = spawn('yes', [], { stdio: ['ignore', 'ignore', 'ignore'] });
    hogs.push(hog);
    await new Promise((resolve, reject) => hog.once('spawn', resolve).once('error', reject));
  }
}

describe('the capture tier', () => {
  it('with two CPU hogs beside it, captures what it cannot analyse; every frame is in the record or counted in a gap', async () => {
    await startHogs();
    const dir = tempDir().dir;
    const result = await runBin(['-q', '--record', 'w.jsonl', '--', 'cat'], { cwd: dir, input: tinyLines });
    expect(result.code).toBe(0);
    expect(result.stdout.equals(tinyLines)).toBe(true);
    const path = join(dir, 'w.jsonl');
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    const captured = lines.filter((line) => line.includes('"kind":"captured"') && !line.includes('"closed"'));
    // Far behind from the start: frames captured, each with its bytes as they crossed the wire.
    expect(captured.length).toBeGreaterThan(0);
    expect(captured[0]).toMatch(/^\{"v":2,"seq":\d+,"t":"[^"]+","session":"[^"]+","kind":"captured","dir":"(c2s|s2c)","bytes":2,"msg":\{\}\}$/);
    const entries = readRecord(path);
    expect(entries[0]).toMatchObject({ seq: 1, kind: 'spawn' });
    expect(entries.filter((entry) => (entry.kind as string) === 'captured')).toEqual([]);
    for (const gap of entries.filter((entry) => entry.kind === 'gap')) expect(gap.lost).toBeGreaterThan(0);
    expect(accountedBytes(entries, 'c2s')).toBe(tinyLines.length);
    expect(accountedBytes(entries, 's2c')).toBe(tinyLines.length);
    // Read as analysed: `{}` is no JSON-RPC message, on both sides.
    const frames = entries.filter((entry) => entry.dir !== undefined);
    expect(frames.length).toBeGreaterThanOrEqual(captured.length);
    expect(new Set(frames.map((entry) => entry.kind))).toEqual(new Set(['invalid']));
    // stats counts the captured frames as it counts analysed ones.
    const stats = await runBin(['stats', '--format', 'json', path], { cwd: dir });
    expect(stats.code).toBe(0);
    expect(stats.text).toContain(`"frames": ${frames.length}`);
  });
});
