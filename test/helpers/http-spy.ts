import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import type { RecordEntry } from '../../src/record/schema.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const bin = join(root, 'bin', 'mcp-spy.js');
export const everything = join(root, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
export const fixture = (name: string) => join(root, 'fixtures', 'http', name);

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Running {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** SIGTERM, then the exit code (or 128+n). */
  stop(): Promise<number>;
  exited: Promise<number>;
}

/** Starts a process and resolves once its stdout matches `ready` (rejects if it exits first). */
export async function run(command: string, args: string[], ready: RegExp, options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Running & { match: RegExpMatchArray }> {
  const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk) => (err += chunk));
  const exited = new Promise<number>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 + 15 : 1))));
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const found = ready.exec(out);
      if (found) resolve(found);
    });
    void exited.then((code) => reject(new Error(`${command} ${args.join(' ')} exited with ${code} before it was ready:\n${out}\n${err}`)));
  });
  return {
    child,
    match,
    exited,
    stdout: () => out,
    stderr: () => err,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export interface Spy extends Running {
  url: string;
  dir: string;
  /** The record's entries so far. */
  entries(): RecordEntry[];
  log(): string;
  /** Stops the spy and removes its directory. */
  dispose(): Promise<number>;
}

/** Runs `mcp-spy http` in a fresh directory; resolves with the URL it prints. */
export async function startSpy(args: string[], server: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Spy> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-spy-http-'));
  const all = ['http', '--quiet', ...args, ...(server.length > 0 ? ['--', ...server] : [])];
  const running = await run(process.execPath, [bin, ...all], /listening on (\S+),/, { cwd: dir, env });
  const spy: Spy = {
    ...running,
    url: running.match[1]!,
    dir,
    entries: () =>
      readFileSync(join(dir, 'wire.jsonl'), 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as RecordEntry),
    log: () => readFileSync(join(dir, 'wire.log'), 'utf8'),
    dispose: async () => {
      const code = await running.stop();
      rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
  return spy;
}

/** Runs `mcp-spy` to completion (for bad use): its exit code and output. */
export async function runSpyOnce(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number>((resolve) => child.once('exit', (exitCode) => resolve(exitCode ?? 1)));
  return { code, stdout, stderr };
}

/** Frames only (entries with a direction). */
export function framesOf(entries: RecordEntry[]): RecordEntry[] {
  return entries.filter((entry) => entry.dir === 'c2s' || entry.dir === 's2c');
}

/** The record is written as it goes, a moment after the traffic: polls until `find` finds something. */
export async function eventually<T>(find: () => T | undefined, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined && found !== false) return found;
    if (Date.now() > deadline) throw new Error('not found in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * For a describe block: a server started by the spy (`server(port)` is its command line) on a free
 * port, with the spy in front of `path`; both stop after the block. Read `spy` and `direct` in tests.
 */
export function spyInFront(path: string, server: (port: number) => string[]) {
  const state = {} as { spy: Spy; direct: string };
  beforeAll(async () => {
    const port = await freePort();
    state.direct = `http://127.0.0.1:${port}${path}`;
    state.spy = await startSpy(['--target', state.direct], server(port));
  });
  afterAll(async () => {
    await state.spy?.dispose();
  });
  return state;
}
