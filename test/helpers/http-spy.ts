// Listening processes: servers, the HTTP spy and the mock, each started on a free port and stopped by the test.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { waitUntil } from './faults.js';
import { bin, everythingServer, fixture, node, readEntries, runClient, type TestEntry } from './spy.js';

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

/** A process and its descendants as `ps` sees them (state, age, command): what a start that hangs was doing. */
function processTree(root: number | undefined): string {
  try {
    const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,stat=,etime=,args='], { encoding: 'utf8' })
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields.length >= 5);
    const wanted = new Set([String(root)]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const [pid, ppid] of rows) if (wanted.has(ppid!) && !wanted.has(pid!)) grew = Boolean(wanted.add(pid!));
    }
    return rows
      .filter(([pid]) => wanted.has(pid!))
      .map((fields) => fields.join(' '))
      .join('\n');
  } catch (error) {
    return String(error);
  }
}

export interface Running {
  child: ChildProcess;
  /** What `ready` matched: its first group, or the whole match. */
  url: string;
  match: RegExpMatchArray;
  stdout: () => string;
  stderr: () => string;
  /** SIGTERM, then the exit code (or 128+n). */
  stop(): Promise<number>;
  exited: Promise<number>;
}

/** Starts a process and resolves once its stdout or stderr matches `ready` (rejects if it exits first or takes 45 s, and stops it). */
export async function run(command: string, args: string[], ready: RegExp, options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Running> {
  const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const seen = { out: '', err: '' };
  const exited = new Promise<number>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 + 15 : 1))));
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    let notReady: NodeJS.Timeout | undefined;
    const watch = (stream: 'out' | 'err') => (chunk: Buffer) => {
      seen[stream] += chunk.toString('utf8');
      const found = ready.exec(seen[stream]);
      // Ready: the bound below is for starting only (a process a test keeps longer is not stopped at 30 s).
      if (found) {
        clearTimeout(notReady);
        resolve(found);
      }
    };
    child.stdout!.on('data', watch('out'));
    child.stderr!.on('data', watch('err'));
    void exited.then((code) => reject(new Error(`${command} ${args.join(' ')} exited with ${code} before it was ready:\n${seen.out}\n${seen.err}`)));
    // A loaded machine may take a while to start a server; one that never gets ready is not left behind.
    notReady = setTimeout(() => {
      const tree = processTree(child.pid);
      child.kill('SIGTERM');
      reject(new Error(`${command} ${args.join(' ')} not ready after 45s:\n${seen.out}\n${seen.err}\nprocesses:\n${tree}`));
    }, 45_000).unref();
  });
  return {
    child,
    match,
    url: match[1] ?? match[0],
    exited,
    stdout: () => seen.out,
    stderr: () => seen.err,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export interface Spy extends Running {
  dir: string;
  /** The record's entries so far. */
  entries(): TestEntry[];
  log(): string;
  /** Stops the spy and removes its directory. */
  dispose(): Promise<number>;
}

/** Runs `mcp-spy http` in a fresh directory; resolves with the URL it prints. */
export async function startSpy(args: string[], server: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Spy> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-spy-http-'));
  const all = ['http', '--quiet', ...args, ...(server.length > 0 ? ['--', ...server] : [])];
  const running = await run(node, [bin, ...all], /listening on (\S+),/, { cwd: dir, env });
  const spy: Spy = {
    ...running,
    dir,
    entries: () => readEntries(join(dir, 'wire.jsonl')),
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
  const child = spawn(node, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number>((resolve) => child.once('exit', (exitCode) => resolve(exitCode ?? 1)));
  return { code, stdout, stderr };
}

/**
 * The record is written as it goes, a moment after the traffic: polls until `find` finds something
 * (waitUntil's loop). The time allowed is for a loaded machine (the observer runs at a low priority,
 * so beside busy processes it may lag by many seconds); a quiet one finds it at once.
 */
export async function eventually<T>(find: () => T | undefined, timeoutMs = 40_000): Promise<T> {
  let found: T | undefined;
  // A record read while the spy appends to it may end in a line still being written: that is "not
  // yet", not a failure; the last such error is what the test fails with if the time runs out.
  let lastError: unknown;
  try {
    await waitUntil(
      () => {
        try {
          found = find();
          lastError = undefined;
        } catch (error) {
          lastError = error;
          return false;
        }
        return found !== undefined && found !== false;
      },
      timeoutMs,
      'the record to show it',
    );
  } catch (error) {
    throw lastError ?? error;
  }
  return found as T;
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

/** How a client script from fixtures/clients reaches the spy: Streamable HTTP (`--url`) or legacy HTTP+SSE (`--sse`). */
export interface HttpClient {
  script: string;
  flag: '--url' | '--sse';
  env?: NodeJS.ProcessEnv;
}

/**
 * Records a real session: `mcp-spy http` in front of a server it starts on a free port (`server(port)`,
 * its endpoint at `path`), driven by a client script. The spy is stopped after, so the record is whole;
 * wire.jsonl and wire.log are left in `dir`. Returns their paths and the client's results.
 */
export async function recordHttp(dir: string, path: string, server: (port: number) => string[], client: HttpClient) {
  const port = await freePort();
  const record = join(dir, 'wire.jsonl');
  const log = join(dir, 'wire.log');
  const spy = await startSpy(['--target', `http://127.0.0.1:${port}${path}`, '--record', record, '--log', log], server(port));
  try {
    const results = await runClient(client.script, [client.flag, spy.url], client.env);
    return { record, log, results };
  } finally {
    await spy.dispose();
  }
}

/** server-everything's command line in one of its HTTP modes (`streamableHttp`, `sse`) on a port. */
export const everythingHttp = (mode: string) => (port: number) => ['env', `PORT=${port}`, node, everythingServer, mode];

/** fixtures/v2/server.js serving stateless HTTP on a port. */
export const v2Http = (port: number, ...flags: string[]) => [node, fixture('v2', 'server.js'), 'http', '--port', String(port), ...flags];

/** Runs `mcp-spy mock <record> --listen` on a free port (with `flags`) for the length of `use`, which gets its URL. */
export async function withMock<T>(record: string, use: (url: string) => Promise<T>, flags: string[] = []): Promise<T> {
  const mock = await run(node, [bin, 'mock', record, '--listen', '127.0.0.1:0', ...flags], /serving .* at (http:\/\/\S+)/);
  try {
    return await use(mock.url);
  } finally {
    await mock.stop();
  }
}

/** Starts a server on a free port (`command(port)`) for the length of `use`; `ready` is what it prints once it listens. */
export async function withServer<T>(command: (port: number) => string[], ready: RegExp, use: (port: number) => Promise<T>): Promise<T> {
  const port = await freePort();
  const [program, ...args] = command(port);
  const server = await run(program!, args, ready);
  try {
    return await use(port);
  } finally {
    await server.stop();
  }
}
