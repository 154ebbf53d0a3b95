import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountedBytes, readRecord, request } from '../helpers/faults.js';
import { fixture, node, runBin, tempDir } from '../helpers/spy.js';

// Finishing the record must not keep the client waiting past --drain-timeout, must not lose a
// byte without a gap saying so, and must end with the exit entry, whatever stops it.

const denseLines = Buffer.from('{}\n'.repeat(Math.floor((8 * 1024 * 1024) / 3)));

describe('finishing the record', () => {
  it('8 MiB of 3-byte lines through cat: the spy exits within the drain timeout, every byte is a frame or in a gap', async () => {
    const dir = tempDir().dir;
    let ended = 0;
    const result = await runBin(['-q', '--', 'cat'], {
      cwd: dir,
      onStart: (child) => child.stdin!.end(denseLines, () => (ended = performance.now())),
    });
    expect(result.code).toBe(0);
    expect(result.stdout.equals(denseLines)).toBe(true);
    // 2 s of drain timeout, and a loaded machine's margin.
    expect(performance.now() - ended).toBeLessThan(8000);
    const entries = readRecord(join(dir, 'wire.jsonl'));
    expect(accountedBytes(entries, 'c2s')).toBe(denseLines.length);
    expect(accountedBytes(entries, 's2c')).toBe(denseLines.length);
    expect(entries.at(-1)).toMatchObject({ kind: 'exit', code: 0 });
  });

  it('a burst of progress, then the client closes as the SDK does (stdin ends, SIGTERM 2 s later): the server status, a gap, the exit', async () => {
    const dir = tempDir().dir;
    let total = 0;
    const result = await runBin(['-q', '--', node, fixture('faults', 'burst-server.js')], {
      cwd: dir,
      env: { COUNT: '1000000' },
      onStart: (child) => {
        child.stdout!.on('data', (chunk: Buffer) => (total += chunk.length));
        child.stdin!.end(request(1));
        setTimeout(() => child.kill('SIGTERM'), 2000);
      },
    });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(0);
    expect(result.durationMs).toBeLessThan(15_000);
    const entries = readRecord(join(dir, 'wire.jsonl'));
    expect(accountedBytes(entries, 's2c')).toBe(total);
    expect(entries.some((entry) => entry.kind === 'gap' && entry.stream === 's2c')).toBe(true);
    // A request left pending is said after the exit.
    expect(entries.filter((entry) => entry.kind !== 'unanswered').at(-1)).toMatchObject({ kind: 'exit', code: 0 });
  });

  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('%s while finishing ends it early, with the gap, the exit entry and the server status', async (signal) => {
    const dir = tempDir().dir;
    let total = 0;
    let signalledAt = 0;
    const result = await runBin(['-q', '--drain-timeout', '60s', '--', node, fixture('faults', 'burst-server.js')], {
      cwd: dir,
      env: { COUNT: '600000' },
      onStart: (child) => {
        child.stdout!.on('data', (chunk: Buffer) => (total += chunk.length));
        child.stdin!.end(request(1));
        // The server says so just before it exits: a moment later the spy is finishing.
        child.stderr!.on('data', (chunk: Buffer) => {
          if (!chunk.toString().includes('burst sent')) return;
          setTimeout(() => {
            signalledAt = performance.now();
            child.kill(signal);
          }, 300);
        });
      },
    });
    expect(result.code).toBe(0);
    expect(signalledAt).toBeGreaterThan(0);
    const entries = readRecord(join(dir, 'wire.jsonl'));
    expect(accountedBytes(entries, 's2c')).toBe(total);
    expect(entries.at(-1)).toMatchObject({ kind: 'exit', code: 0 });
  });
});
