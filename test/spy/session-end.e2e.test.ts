import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive, readRecord, request, waitUntil } from '../helpers/faults.js';
import { bin, fixture, node, runBin, tempDir } from '../helpers/spy.js';

// The session ends as it would without the spy: when the client goes, the server finds out as it
// would (EPIPE) and both end; when the server exits, the client hears of it at once.

describe('when the client dies', () => {
  it('a server that ignores EOF gets EPIPE on its stdout and ends, and the spy with it', async () => {
    const dir = tempDir().dir;
    const spy = spawn(node, [bin, '-q', '--', node, fixture('faults', 'eof-ignorer.js')], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
    let serverPid = 0;
    let heartbeats = 0;
    spy.stdout.on('data', () => heartbeats++);
    await waitUntil(() => heartbeats >= 3, 40_000, 'heartbeats');
    // The record is written a moment after the bytes pass: wait for the spawn entry.
    const spawnedOf = () => (existsSync(join(dir, 'wire.jsonl')) ? readRecord(join(dir, 'wire.jsonl')).find((entry) => entry.kind === 'spawn') : undefined);
    await waitUntil(() => spawnedOf() !== undefined, 40_000, 'the spawn entry');
    serverPid = Number(spawnedOf()?.pid);
    expect(isAlive(serverPid)).toBe(true);
    // The client goes away: its ends of the pipes close.
    spy.stdout.destroy();
    spy.stdin.destroy();
    const exited = new Promise<number | null>((resolve) => spy.on('exit', (code) => resolve(code)));
    // Directly the server would end within a moment of its next heartbeat; the old spy kept both alive.
    await waitUntil(() => !isAlive(serverPid) && spy.exitCode !== null, 40_000, 'the server and the spy to end');
    expect(await exited).toBe(0);
    const entries = readRecord(join(dir, 'wire.jsonl'));
    expect(entries.find((entry) => entry.kind === 'note')).toMatchObject({ notes: ['client-gone'] });
    expect(entries.at(-1)).toMatchObject({ kind: 'exit', code: 0 });
  });
});

describe('when the server exits', () => {
  it('a child of the server that holds its stdout open does not keep the client waiting', async () => {
    const dir = tempDir().dir;
    let childPid = 0;
    const result = await runBin(['-q', '--', node, fixture('faults', 'child-holder.js')], {
      cwd: dir,
      // Longer than the test may run: the spy must end without waiting for it.
      env: { HOLD_MS: '600000' },
      onStart: (child) => {
        child.stderr!.on('data', (chunk: Buffer) => {
          const found = /child (\d+)/.exec(chunk.toString());
          if (found) childPid = Number(found[1]);
        });
        child.stdin!.write(request(1));
      },
    });
    try {
      expect(result.code).toBe(0);
      expect(result.text).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n');
      // The spy has exited while the child still holds the pipes (the old spy waited for it).
      expect(childPid).toBeGreaterThan(0);
      expect(isAlive(childPid)).toBe(true);
      expect(readRecord(join(dir, 'wire.jsonl')).at(-1)).toMatchObject({ kind: 'exit', code: 0 });
    } finally {
      if (childPid && isAlive(childPid)) process.kill(childPid);
    }
  });
});

describe('a stop signal while the spy waits for the pipes of a server that has exited', () => {
  it('ends the finishing early with exit 0 and the exit entry (the old spy failed with 70: a deadline of a fraction of a ms)', async () => {
    const dir = tempDir().dir;
    let childPid = 0;
    const record = join(dir, 'wire.jsonl');
    const result = await runBin(['-q', '--drain-timeout', '60s', '--', node, fixture('faults', 'child-holder.js')], {
      cwd: dir,
      // The server's child keeps writing to the pipe: the spy waits for it to go quiet, up to --drain-timeout.
      env: { HOLD_MS: '600000', CHATTER_MS: '10' },
      onStart: (child) => {
        child.stderr!.on('data', (chunk: Buffer) => {
          const found = /child (\d+)/.exec(chunk.toString());
          if (found) childPid = Number(found[1]);
        });
        child.stdin!.write(request(1));
        void (async () => {
          const spawnedOf = () => (existsSync(record) ? readRecord(record).find((entry) => entry.kind === 'spawn') : undefined);
          await waitUntil(() => spawnedOf() !== undefined, 60_000, 'the spawn entry');
          const serverPid = Number(spawnedOf()?.pid);
          // Reaped by the spy: it knows the server has exited, and waits (up to --drain-timeout) for
          // the pipes the server's child writes to. The signal cuts that short, then the finishing.
          await waitUntil(() => !isAlive(serverPid), 60_000, 'the server to exit');
          child.kill('SIGHUP');
        })();
      },
    });
    try {
      expect(result.stderr.toString()).not.toContain('internal error');
      // On a starved machine the chattering child may not run for longer than the spy's quiet window
      // (50 ms): the spy then finishes before the signal comes, and a signal that lands as it exits ends
      // it as any process. Either way: no internal error, and the record ends with the server's exit.
      if (result.signal === null) expect(result.code).toBe(0);
      else expect(result.signal).toBe('SIGHUP');
      expect(readRecord(record).at(-1)).toMatchObject({ kind: 'exit', code: 0 });
    } finally {
      if (childPid && isAlive(childPid)) process.kill(childPid);
    }
  });
});
