import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { frameText } from '../../src/record/frame-message.js';
import { accountedBytes, isAlive, readRecord, waitUntil } from '../helpers/faults.js';
import { bin, node, root, runBin, tempDir, type TestEntry } from '../helpers/spy.js';
import { cpuHogs } from '../helpers/hogs.js';

// --lossless: when the recorder falls behind, the stdio spy stops reading the side it cannot hand
// over, so the record holds every frame (no gap) and the traffic slows to the recorder's pace.

const lineServer = join(root, 'bench', 'line-server.js');

/** Many MiB of small lines with some 1 MiB lines among them: more than the observer keeps up with. */
function flood(): Buffer {
  const big = (n: number) => `{"jsonrpc":"2.0","id":"big-${n}","result":{"d":"${'y'.repeat(1024 * 1024)}"}}\n`;
  const parts: string[] = [];
  for (let block = 0; block < 4; block++) {
    let small = '';
    for (let id = 0; id < 40_000; id++) small += `{"jsonrpc":"2.0","id":${block * 40_000 + id},"method":"ping"}\n`;
    parts.push(small, big(block));
  }
  return Buffer.from(parts.join(''));
}

/** The bytes of one direction as the record holds them: each frame's text and its line ending. */
function recordedBytes(entries: TestEntry[], dir: 'c2s' | 's2c'): Buffer {
  return Buffer.from(
    entries
      .filter((entry) => entry.dir === dir)
      .map((entry) => `${frameText(entry)}${entry.eol ?? '\n'}`)
      .join(''),
  );
}

function expectNoGap(entries: TestEntry[]) {
  expect(entries.filter((entry) => entry.kind === 'gap').map((gap) => JSON.stringify(gap))).toEqual([]);
  expect(entries[0]).toMatchObject({ seq: 1, kind: 'spawn' });
  expect(entries.filter((entry) => entry.kind === 'exit')).toHaveLength(1);
}

/** `count` pipelined calls, all written at once, to the bench's line server (it parses nothing). */
async function pipelinedCalls(count: number): Promise<TestEntry[]> {
  let calls = '';
  for (let id = 1; id <= count; id++) calls += `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"n":${id}}}}\n`;
  const dir = tempDir().dir;
  const result = await runBin(['--lossless', '-q', '--no-log', '--record', 'w.jsonl', '--', node, lineServer, '300'], { cwd: dir, input: calls });
  expect(result.code).toBe(0);
  expect(result.stdout.toString('utf8').split('\n').length - 1).toBe(count);
  return readRecord(join(dir, 'w.jsonl'));
}

/** The server's pid, once the spawn entry is in the record. */
function spawnedPid(record: string): number | undefined {
  const first = existsSync(record) ? readFileSync(record, 'utf8').split('\n')[0]! : '';
  const pid = /"pid":(\d+)/.exec(first)?.[1];
  return pid === undefined ? undefined : Number(pid);
}

const hogs = cpuHogs();

describe('--lossless on stdio', () => {
  it('a flood through cat: every frame recorded, no gap, the bytes as they went through', async () => {
    const input = flood();
    const dir = tempDir().dir;
    const result = await runBin(['--lossless', '-q', '--no-log', '--record', 'w.jsonl', '--', 'cat'], { cwd: dir, input });
    expect(result.code).toBe(0);
    expect(result.stdout.equals(input)).toBe(true);
    const entries = readRecord(join(dir, 'w.jsonl'));
    expectNoGap(entries);
    expect(recordedBytes(entries, 'c2s').equals(input)).toBe(true);
    expect(recordedBytes(entries, 's2c').equals(result.stdout)).toBe(true);
  }, 120_000);

  it('finishing is not cut short by --drain-timeout: the record ends whole', async () => {
    const tinyLines = Buffer.from('{}\n'.repeat(Math.floor((256 * 1024) / 3)));
    const dir = tempDir().dir;
    const result = await runBin(['--lossless', '--drain-timeout', '1ms', '-q', '--no-log', '--record', 'w.jsonl', '--', 'cat'], { cwd: dir, input: tinyLines });
    expect(result.code).toBe(0);
    expect(result.stdout.equals(tinyLines)).toBe(true);
    const entries = readRecord(join(dir, 'w.jsonl'));
    expectNoGap(entries);
    expect(recordedBytes(entries, 's2c').equals(tinyLines)).toBe(true);
  }, 120_000);

  it('a stop signal while it finishes still cuts it short: gaps that count what is left, the exit, the status', async () => {
    const tinyLines = Buffer.from('{}\n'.repeat(512 * 1024));
    const dir = tempDir().dir;
    const record = join(dir, 'w.jsonl');
    // Analysed, not captured: captured, the record would be finished before the signal could come.
    const spy = spawn(node, [bin, '--lossless', '--capture', 'never', '-q', '--no-log', '--record', record, '--', 'cat'], {
      cwd: dir,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const exited = new Promise<number | null>((resolve) => spy.once('exit', resolve));
    spy.stdout.resume();
    spy.stdin.end(tinyLines);
    // The server's pid is in the record's first entry; once it has exited, the spy is finishing.
    let pid: number | undefined;
    await waitUntil(() => (pid ??= spawnedPid(record)) !== undefined, 60_000, 'the spawn entry');
    await waitUntil(() => !isAlive(pid!), 120_000, 'the server to exit');
    spy.kill('SIGINT');
    expect(await exited).toBe(0);
    const entries = readRecord(record);
    expect(entries.filter((entry) => entry.kind !== 'unanswered').at(-1)).toMatchObject({ kind: 'exit', code: 0 });
    const gaps = entries.filter((entry) => entry.kind === 'gap');
    // Hundreds of thousands of lines still to observe when the signal came: it cut them, and the gaps say so.
    expect(gaps.length).toBeGreaterThan(0);
    for (const gap of gaps)
      expect(gap).toMatchObject({
        stream: expect.stringMatching(/^(c2s|s2c)$/),
        lost: expect.any(Number),
        reason: expect.stringContaining('(SIGINT cut finishing short)'),
      });
    expect(accountedBytes(entries, 'c2s')).toBe(tinyLines.length);
    expect(accountedBytes(entries, 's2c')).toBe(tinyLines.length);
  }, 180_000);

  it('100,000 pipelined calls to a fast server: 200,000 frames, no gap', async () => {
    const entries = await pipelinedCalls(100_000);
    expectNoGap(entries);
    expect(entries.filter((entry) => entry.dir === 'c2s')).toHaveLength(100_000);
    expect(entries.filter((entry) => entry.dir === 's2c')).toHaveLength(100_000);
  }, 120_000);

  it('the same with two CPU hogs beside it: still no gap', async () => {
    await hogs.start();
    const entries = await pipelinedCalls(100_000);
    expectNoGap(entries);
    expect(entries.filter((entry) => entry.dir !== undefined)).toHaveLength(200_000);
    // The traffic goes at the recorder's pace, which two hogs slow: seconds, not a bound.
  }, 180_000);
});
