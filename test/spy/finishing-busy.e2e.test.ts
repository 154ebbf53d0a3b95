import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountedBytes, readRecord } from '../helpers/faults.js';
import { startSpy } from '../helpers/http-spy.js';
import { runBin, tempDir, type TestEntry } from '../helpers/spy.js';
import { cpuHogs } from '../helpers/hogs.js';

// What the observer made is never thrown away when finishing runs out of time: on a machine so
// busy that the observer thread (at a low priority) hardly runs, or with a drain timeout too short
// to observe everything, the record still begins with the spawn, holds every entry made in
// order, and counts every byte it does not hold in a gap that says which stream and how many.

const tinyLines = Buffer.from('{}\n'.repeat(Math.floor((1024 * 1024) / 3)));

/** The spawn first, seq 1, 2, 3 ... with no hole, every gap with its stream and count, every byte a frame or counted, the exit last. */
function expectWhole(entries: TestEntry[], bytes: number) {
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
async function recordTinyLines(args: string[]): Promise<TestEntry[]> {
  const dir = tempDir().dir;
  const result = await runBin(['-q', '--record', 'w.jsonl', ...args, '--', 'cat'], { cwd: dir, input: tinyLines });
  expect(result.code).toBe(0);
  expect(result.stdout.equals(tinyLines)).toBe(true);
  return readRecord(join(dir, 'w.jsonl'));
}

const hogs = cpuHogs();

describe('finishing when time runs out keeps what was observed', () => {
  it('with two CPU hogs beside it: the spawn and every frame are in the record or counted in a gap', async () => {
    await hogs.start();
    // Analysed, not captured: the capture tier would keep it all (spy/capture.e2e); this is about finishing.
    expectWhole(await recordTinyLines(['--capture', 'never']), tinyLines.length);
  });

  it('with a drain timeout too short to observe it all: the same, on a quiet machine', async () => {
    // Analysed, not captured (capture would keep it all): what is left at the deadline becomes a gap.
    const entries = await recordTinyLines(['--drain-timeout', '1ms', '--capture', 'never']);
    expectWhole(entries, tinyLines.length);
    expect(entries.some((entry) => entry.kind === 'gap' && entry.reason?.includes('--drain-timeout'))).toBe(true);
  });

  it('on HTTP, stopped while the observer is far behind with a 1 ms drain timeout: every entry in order, every gap with its count', async () => {
    const big = 'x'.repeat(1024 * 1024);
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: big }] } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const spy = await startSpy(['--target', `http://127.0.0.1:${port}/mcp`, '--drain-timeout', '1ms']);
    try {
      const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: {} } };
      for (let round = 0; round < 10; round++) {
        const answers = Array.from({ length: 8 }, () =>
          fetch(`${spy.url}/mcp`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            body: JSON.stringify(call),
          }).then((answer) => answer.text()),
        );
        for (const text of await Promise.all(answers)) expect(text.length).toBeGreaterThan(big.length);
      }
      spy.child.kill('SIGTERM');
      expect(await spy.exited).toBe(0);
      const entries = readRecord(join(spy.dir, 'wire.jsonl'));
      expect(entries[0]).toMatchObject({ seq: 1, kind: 'http' });
      expect(entries.map((entry) => entry.seq)).toEqual(entries.map((_, index) => index + 1));
      for (const gap of entries.filter((entry) => entry.kind === 'gap')) expect(gap.lost, JSON.stringify(gap)).toBeGreaterThan(0);
    } finally {
      await spy.dispose();
      server.close();
    }
  });
});
