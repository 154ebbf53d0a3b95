import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecord, request, waitUntil } from '../helpers/faults.js';
import { bin, fixture, node, runBin, tempDir } from '../helpers/spy.js';

/** Whether the process catches SIGHUP yet (the spy's handler is installed; Node itself catches only SIGINT and SIGTERM): read from /proc. */
function catchesSighup(pid: number): boolean {
  try {
    const mask = /SigCgt:\s*([0-9a-f]+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return mask !== undefined && (BigInt(`0x${mask}`) & 1n) !== 0n;
  } catch {
    return false;
  }
}

/** The process's children, from /proc. */
function hasChildren(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim() !== '';
  } catch {
    return false;
  }
}

describe('starting up', () => {
  it('an observer thread slow to start (past the drain timeout) still records a short session whole', async () => {
    const dir = tempDir().dir;
    const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}\n';
    // The thread stalls 3.5 s before it loads; the session is over at once, and the drain timeout is 2 s.
    const env = { NODE_OPTIONS: `--import=${fixture('startup', 'slow-threads.mjs')}`, MCP_SPY_TEST_THREAD_STALL_MS: '3500' };
    const result = await runBin(['-q', '--record', join(dir, 'wire.jsonl'), '--no-log', '--', 'cat'], { cwd: dir, input: ping, env });
    expect(result).toMatchObject({ code: 0, text: ping, stderr: '' });
    expect(readRecord(join(dir, 'wire.jsonl')).map((entry) => [entry.kind, entry.dir])).toEqual([
      ['spawn', undefined],
      ['request', 'c2s'],
      ['request', 's2c'],
      ['exit', undefined],
      ['unanswered', undefined],
    ]);
  });

  it('a signal while the spy is still starting leaves a record: the spawn attempt and the exit', async () => {
    const dir = tempDir().dir;
    const spy = spawn(node, [bin, '-q', '--', 'cat'], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
    // The moment that matters: the spy catches the signal, and has not started the server yet.
    const until = Date.now() + 10_000;
    await new Promise<void>((resolve, reject) => {
      const poll = () => {
        if (catchesSighup(spy.pid!) && !hasChildren(spy.pid!)) resolve();
        else if (Date.now() > until) reject(new Error('the spy never caught SIGHUP before starting the server'));
        else setImmediate(poll);
      };
      poll();
    });
    spy.kill('SIGHUP');
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => spy.on('exit', (c, s) => resolve([c, s])));
    expect(signal).toBeNull();
    expect(code).toBe(129);
    const entries = readRecord(join(dir, 'wire.jsonl'));
    expect(entries.map((entry) => entry.kind)).toEqual(['spawn', 'exit']);
    expect(entries[1]).toMatchObject({ kind: 'exit', signal: 'SIGHUP' });
  });

  it('with nowhere to write the files (no writable working or state directory) the server runs, and the spy says why once', async () => {
    const result = await runBin(['--', 'cat'], { cwd: '/proc', input: request(1), env: { XDG_STATE_HOME: '/proc/no-such-dir', MCP_SPY_DIR: '' } });
    expect(result.code).toBe(0);
    expect(result.text).toBe(request(1));
    const lines = result.stderr.split('\n').filter((line) => line.includes('not written'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^mcp-spy: the record and log are not written \(cannot make \/proc\/no-such-dir\/mcp-spy: .+\); the server runs all the same$/);
  });

  it('MCP_SPY_DIR naming a file: the server runs, and the spy says why', async () => {
    const dir = tempDir().dir;
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    const result = await runBin(['-q', '--', 'cat'], { cwd: dir, input: request(1), env: { MCP_SPY_DIR: file } });
    expect(result.code).toBe(0);
    expect(result.text).toBe(request(1));
    expect(result.stderr).toContain(`the record and log are not written (cannot make ${file}`);
  });
});

describe("a stop signal before the spy's own modules have loaded", () => {
  it.each(['SIGHUP', 'SIGTERM'] as const)('%s is held from the first line of the spy, and the record holds the attempt', async (signal) => {
    const dir = tempDir().dir;
    const loading = join(dir, 'loading');
    const release = join(dir, 'release');
    const env = {
      ...process.env,
      NODE_OPTIONS: `--import=${fixture('startup', 'slow-modules.mjs')}`,
      MCP_SPY_TEST_LOADING: loading,
      MCP_SPY_TEST_RELEASE: release,
    };
    const spy = spawn(node, [bin, '-q', '--', 'cat'], { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    spy.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const ended = new Promise<[number | null, string | null]>((resolve) => spy.on('exit', (c, s) => resolve([c, s])));
    // The spy's first module is being loaded: the moment a busy machine makes long.
    await waitUntil(() => existsSync(loading), 40_000, 'the spy to start loading its modules');
    spy.kill(signal);
    writeFileSync(release, '');
    const [code, killedBy] = await ended;
    expect(killedBy).toBeNull();
    expect(code).toBe(128 + constants.signals[signal]);
    expect(stderr).toBe(`mcp-spy: cannot start cat: stopped by ${signal} before it started\n`);
    const entries = readRecord(join(dir, 'wire.jsonl'));
    expect(entries.map((entry) => entry.kind)).toEqual(['spawn', 'exit']);
    expect(entries[1]).toMatchObject({ kind: 'exit', signal });
  });

  it('any other command it ends as it would have (the command handles its signals itself once loaded)', async () => {
    const dir = tempDir().dir;
    const loading = join(dir, 'loading');
    const release = join(dir, 'release');
    const env = {
      ...process.env,
      NODE_OPTIONS: `--import=${fixture('startup', 'slow-modules.mjs')}`,
      MCP_SPY_TEST_LOADING: loading,
      MCP_SPY_TEST_RELEASE: release,
    };
    const viewer = spawn(node, [bin, 'view', '-'], { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const ended = new Promise<[number | null, string | null]>((resolve) => viewer.on('exit', (c, s) => resolve([c, s])));
    await waitUntil(() => existsSync(loading), 40_000, 'view to start loading its modules');
    viewer.kill('SIGTERM');
    writeFileSync(release, '');
    expect(await ended).toEqual([null, 'SIGTERM']);
  });
});
