import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, openSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountedBytes, readRecord, request, waitUntil } from '../helpers/faults.js';
import { bin, node, piped, runBin, tempDir } from '../helpers/spy.js';

const mkfifo = (path: string) => {
  const made = spawn('mkfifo', [path]);
  return new Promise<void>((resolve, reject) => made.on('exit', (code) => (code === 0 ? resolve() : reject(new Error('mkfifo failed')))));
};
const isRoot = process.getuid?.() === 0;

// Files in the working directory are not the spy's to trust: a shared directory may hold links,
// FIFOs and files of other users under the default names. None of them may redirect, block or
// break the session.
describe('the default files', () => {
  it("are never written through a planted symlink, nor created at a dangling link's target", async () => {
    const cwd = tempDir().dir;
    const elsewhere = tempDir().dir;
    const victim = join(elsewhere, 'victim.txt');
    writeFileSync(victim, 'keep me\n', { mode: 0o644 });
    symlinkSync(victim, join(cwd, 'wire.jsonl'));
    symlinkSync(join(elsewhere, 'created.log'), join(cwd, 'wire.log'));
    const state = tempDir().dir;
    const result = await runBin(['-q', '--', 'cat'], { cwd, input: request(1), env: { XDG_STATE_HOME: state, MCP_SPY_DIR: '' } });
    expect(result.code).toBe(0);
    expect(result.text).toBe(request(1));
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
    expect(statSync(victim).mode & 0o777).toBe(0o644);
    expect(existsSync(join(elsewhere, 'created.log'))).toBe(false);
    expect(result.stderr).toMatch(/wire\.jsonl: it is a symbolic link/);
    expect(readRecord(join(state, 'mcp-spy', 'wire.jsonl')).some((entry) => entry.kind === 'request')).toBe(true);
  });

  it('a FIFO named wire.jsonl neither stops the server from starting nor keeps the spy from exiting', async () => {
    const cwd = tempDir().dir;
    await mkfifo(join(cwd, 'wire.jsonl'));
    const state = tempDir().dir;
    const result = await runBin(['-q', '--', 'cat'], { cwd, input: request(1), env: { XDG_STATE_HOME: state, MCP_SPY_DIR: '' } });
    expect(result.code).toBe(0);
    expect(result.text).toBe(request(1));
    expect(result.stderr).toMatch(/wire\.jsonl: it is a FIFO that no process is reading|not a regular file/);
  });

  it.skipIf(!isRoot)("a file of another user is refused (root's spy does not append to it)", async () => {
    const cwd = tempDir().dir;
    const theirs = join(cwd, 'wire.jsonl');
    writeFileSync(theirs, '');
    chownSync(theirs, 65534, 65534);
    const state = tempDir().dir;
    const result = await runBin(['-q', '--', 'cat'], { cwd, input: request(1), env: { XDG_STATE_HOME: state, MCP_SPY_DIR: '' } });
    expect(result.code).toBe(0);
    expect(readFileSync(theirs, 'utf8')).toBe('');
    expect(result.stderr).toMatch(/belongs to another user/);
  });

  it('an existing record readable by others is made private (0600)', async () => {
    const cwd = tempDir().dir;
    writeFileSync(join(cwd, 'wire.jsonl'), '');
    chmodSync(join(cwd, 'wire.jsonl'), 0o644);
    const result = await runBin(['-q', '--', 'cat'], { cwd, input: request(1) });
    expect(result.code).toBe(0);
    expect(statSync(join(cwd, 'wire.jsonl')).mode & 0o777).toBe(0o600);
  });
});

const nobody = 65534;

/**
 * Why these cases cannot run as `nobody` here, if they cannot: a clone in a directory `nobody`
 * cannot enter (root's home, a mode-700 temporary directory) holds a binary it cannot load.
 */
function whyNobodyCannotRun(): string | undefined {
  if (!isRoot) return 'not run as root, so not as another user either';
  const tried = spawnSync(node, [bin, '--version'], { uid: nobody, gid: nobody, encoding: 'utf8' });
  if (tried.status === 0) return undefined;
  const why = (tried.stderr ?? '').split('\n').find((line) => line.includes('Error')) ?? tried.error?.message ?? `exit ${tried.status}`;
  return `user nobody (uid ${nobody}) cannot run ${bin} (${why.trim()}): this clone is in a directory it cannot enter`;
}
const nobodyCannotRun = whyNobodyCannotRun();
if (nobodyCannotRun && isRoot) console.warn(`skipping "the reason the default files went elsewhere": ${nobodyCannotRun}`);

// As another user than root: root's writes pass every permission check.
describe.skipIf(nobodyCannotRun !== undefined)('the reason the default files went elsewhere', () => {
  const asNobody = () => {
    const cwd = tempDir().dir;
    const state = tempDir().dir;
    chownSync(cwd, nobody, nobody);
    chownSync(state, nobody, nobody);
    return { cwd, env: { XDG_STATE_HOME: state, MCP_SPY_DIR: '' } };
  };

  it("names a read-only wire.jsonl in the user's own directory, not the directory", async () => {
    const { cwd, env } = asNobody();
    writeFileSync(join(cwd, 'wire.jsonl'), '', { mode: 0o444 });
    chownSync(join(cwd, 'wire.jsonl'), nobody, nobody);
    const result = await runBin(['-q', '--', 'cat'], { cwd, env, input: request(1), uid: nobody });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`(${join(cwd, 'wire.jsonl')}: it is not writable (mode 0444))`);
    expect(result.stderr).not.toContain('is not writable)');
  });

  it('names a planted link as a link', async () => {
    const { cwd, env } = asNobody();
    symlinkSync('/etc/passwd', join(cwd, 'wire.jsonl'));
    const result = await runBin(['-q', '--', 'cat'], { cwd, env, input: request(1), uid: nobody });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`(${join(cwd, 'wire.jsonl')}: it is a symbolic link`);
  });

  it('names a file of another user as theirs', async () => {
    const { cwd, env } = asNobody();
    chmodSync(cwd, 0o1777);
    writeFileSync(join(cwd, 'wire.jsonl'), '', { mode: 0o644 });
    const result = await runBin(['-q', '--', 'cat'], { cwd, env, input: request(1), uid: nobody });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`(${join(cwd, 'wire.jsonl')}: it belongs to another user (uid 0))`);
  });

  it('names the directory when it is the directory that takes no file', async () => {
    const { cwd, env } = asNobody();
    chmodSync(cwd, 0o555);
    const result = await runBin(['-q', '--', 'cat'], { cwd, env, input: request(1), uid: nobody });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`(${cwd} is not writable)`);
  });
});

describe('a path the user names', () => {
  it('may be a symlink: it is followed', async () => {
    const cwd = tempDir().dir;
    symlinkSync(join(cwd, 'real.jsonl'), join(cwd, 'link.jsonl'));
    const result = await runBin(['-q', '--record', 'link.jsonl', '--no-log', '--', 'cat'], { cwd, input: request(1) });
    expect(result.code).toBe(0);
    expect(lstatSync(join(cwd, 'link.jsonl')).isSymbolicLink()).toBe(true);
    expect(readRecord(join(cwd, 'real.jsonl')).some((entry) => entry.kind === 'request')).toBe(true);
  });

  it('may be a FIFO with no reader: the session runs, the spy says so once and exits', async () => {
    const cwd = tempDir().dir;
    await mkfifo(join(cwd, 'pipe.jsonl'));
    const result = await runBin(['-q', '--record', 'pipe.jsonl', '--no-log', '--', 'cat'], { cwd, input: request(1) });
    expect(result.code).toBe(0);
    expect(result.text).toBe(request(1));
    expect(result.stderr).toContain('cannot write record');
    expect(result.stderr).toContain('no process is reading');
  });

  it('may be a FIFO with a reader: it gets the record', async () => {
    const cwd = tempDir().dir;
    const fifo = join(cwd, 'pipe.jsonl');
    await mkfifo(fifo);
    const reader = spawn(node, ['-e', `process.stdin.pipe(process.stdout)`], { stdio: [openSync(fifo, 'r+'), 'pipe', 'inherit'] });
    let read = '';
    piped(reader.stdout, 'stdout').on('data', (chunk: Buffer) => (read += chunk.toString()));
    const result = await runBin(['-q', '--record', 'pipe.jsonl', '--no-log', '--', 'cat'], { cwd, input: request(1) });
    expect(result.code).toBe(0);
    await waitUntil(() => read.includes('"kind":"exit"'), 40_000, 'the record through the FIFO');
    reader.kill();
    expect(read).toContain('"kind":"request"');
  });
});

/**
 * Reads a FIFO into a file at about `bytesPerSecond` (a reader slower than the traffic: a compressor,
 * a remote copy); `stall` stops reading after that many bytes, until killed. Resolves at EOF.
 */
function slowReader(fifo: string, into: string, bytesPerSecond: number, stall = Number.POSITIVE_INFINITY) {
  const script = `
    const fs = require('node:fs');
    const fd = fs.openSync(process.argv[1], 'r');
    const out = fs.openSync(process.argv[2], 'w');
    const chunk = Buffer.alloc(64 * 1024);
    const pause = new Int32Array(new SharedArrayBuffer(4));
    const started = Date.now();
    let got = 0;
    for (;;) {
      const read = fs.readSync(fd, chunk, 0, Math.min(chunk.length, Math.max(1, ${stall} - got)));
      if (read === 0) break;
      fs.writeSync(out, chunk, 0, read);
      got += read;
      if (got >= ${stall}) Atomics.wait(pause, 0, 0);
      const due = started + (got / ${bytesPerSecond}) * 1000;
      if (due > Date.now()) Atomics.wait(pause, 0, 0, due - Date.now());
    }`;
  const reader = spawn(node, ['-e', script, fifo, into], { stdio: 'ignore' });
  return { reader, done: new Promise<void>((resolve) => reader.on('close', () => resolve())) };
}

/** 300-byte requests, numbered from 1. */
const padded = (count: number) =>
  Array.from(
    { length: count },
    (_, index) => `${JSON.stringify({ jsonrpc: '2.0', id: index + 1, method: 'tools/call', params: { pad: 'x'.repeat(230) } })}\n`,
  ).join('');

describe('a record written to a FIFO whose reader is slower than the traffic', () => {
  it('reaches the reader whole, to its exit, once the session is over', async () => {
    const cwd = tempDir().dir;
    const fifo = join(cwd, 'pipe.jsonl');
    await mkfifo(fifo);
    const { done } = slowReader(fifo, join(cwd, 'read.jsonl'), 3_000_000);
    const input = padded(25_000);
    const result = await runBin(['-q', '--record', 'pipe.jsonl', '--no-log', '--drain-timeout', '1s', '--', 'cat'], { cwd, input });
    expect(result.code).toBe(0);
    expect(result.text).toBe(input);
    await done;
    expect(result.stderr).toBe('');
    // Every line whole, to the run's exit; each frame in it, or counted in a gap.
    const entries = readRecord(join(cwd, 'read.jsonl'));
    const exit = entries.findIndex((entry) => entry.kind === 'exit');
    expect(exit).toBeGreaterThan(0);
    expect(entries.slice(exit + 1).map((entry) => entry.kind)).toEqual(entries.length > exit + 1 ? ['unanswered'] : []);
    expect(accountedBytes(entries, 'c2s')).toBe(input.length);
  }, 60_000);

  it('whose reader stops reading: the spy still exits, and says the pipe stayed full', async () => {
    const cwd = tempDir().dir;
    const fifo = join(cwd, 'pipe.jsonl');
    await mkfifo(fifo);
    const { reader } = slowReader(fifo, join(cwd, 'read.jsonl'), 3_000_000, 1_000_000);
    const input = padded(25_000);
    const result = await runBin(['-q', '--record', 'pipe.jsonl', '--no-log', '--drain-timeout', '1s', '--', 'cat'], { cwd, input });
    reader.kill();
    expect(result.code).toBe(0);
    expect(result.text).toBe(input);
    expect(result.stderr).toMatch(/cannot write record \S*pipe\.jsonl: its reader stopped taking it \(the pipe stayed full\)/);
  }, 60_000);
});

describe('a record deleted while the spy runs', () => {
  it('is started anew, and says what went with the old one', async () => {
    const cwd = tempDir().dir;
    const record = join(cwd, 'wire.jsonl');
    let last = 0;
    const result = await runBin(['--', 'cat'], {
      cwd,
      onStart: (child) => {
        let echoed = '';
        let warned = '';
        child.stdout!.on('data', (chunk: Buffer) => (echoed += chunk.toString()));
        child.stderr!.on('data', (chunk: Buffer) => (warned += chunk.toString()));
        child.stdin!.write(request(1));
        void (async () => {
          await waitUntil(() => existsSync(record) && readFileSync(record, 'utf8').includes('"request"'), 40_000, 'the first request');
          rmSync(record);
          // The spy looks for a deleted file when it writes (at most once a second): more traffic,
          // each request once the last came back, until it says it noticed; then the end.
          for (let id = 2; ; id++) {
            child.stdin!.write(request(id));
            await waitUntil(() => echoed.includes(`"id":${id},`), 40_000, `request ${id} back through cat`);
            if (warned.includes('was deleted while the spy ran')) break;
          }
          last = Number(/"id":(\d+),[^\n]*\n$/.exec(echoed)![1]) + 1;
          child.stdin!.end(request(last));
        })();
      },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('was deleted while the spy ran');
    const entries = readRecord(record);
    // The gap belongs to the run it tells of: the session of the exit below.
    expect(entries[0]).toMatchObject({ kind: 'gap', reason: expect.stringContaining('was deleted'), session: entries.at(-2)!.session });
    expect(entries[0]!.session).toEqual(expect.any(String));
    expect(entries.filter((entry) => entry.kind === 'request').map((entry) => entry.id)).toContain(last);
    // cat answers nothing: what it left pending is said after the exit.
    expect(entries.at(-2)).toMatchObject({ kind: 'exit', code: 0 });
    expect(entries.at(-1)).toMatchObject({ kind: 'unanswered' });
  });
});
