// The CLI run inside the test process, through `main(argv)`: for bad use, where a spawned binary adds
// nothing but a second of start-up. What reaches the shell from the binary is proved once per command
// by a spawned smoke test; what needs real pipes, signals or a server stays spawned.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';

export interface MainResult {
  /** The exit status `main` resolved with (the binary exits with it). */
  code: number;
  stdout: Buffer;
  /** stdout as UTF-8 text. */
  text: string;
  stderr: string;
}

export interface MainOptions {
  /** The working directory for the run (default: a fresh temporary directory, removed after). */
  cwd?: string;
  /** Variables set for the run only; `undefined` unsets one. */
  env?: NodeJS.ProcessEnv;
}

type Write = typeof process.stdout.write;

/** Replaces a stream's write with one that keeps the bytes; returns what undoes it. */
function capture(stream: NodeJS.WriteStream, into: Buffer[]): () => void {
  const original = stream.write;
  stream.write = ((chunk: string | Uint8Array, encoding?: BufferEncoding | ((error?: Error | null) => void), callback?: (error?: Error | null) => void) => {
    into.push(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : Buffer.from(chunk));
    const done = typeof encoding === 'function' ? encoding : callback;
    if (done) queueMicrotask(() => done());
    return true;
  }) as Write;
  // A command may listen for a reader that went away (EPIPE): those listeners go with the run.
  const listening = new Set(stream.listeners('error'));
  return () => {
    stream.write = original;
    for (const listener of stream.listeners('error')) if (!listening.has(listener)) stream.off('error', listener as (error: Error) => void);
  };
}

/** Sets variables for a while; returns what puts the old values back. */
function setEnv(env: NodeJS.ProcessEnv): () => void {
  const before = Object.entries(env).map(([name]) => [name, process.env[name]] as const);
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  return () => {
    for (const [name, value] of before) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

/**
 * Runs `main(argv)` here, with stdout and stderr captured, in its own working directory; resolves
 * with the exit status and everything written, shaped like the spawned helpers' results.
 * It changes the process's working directory for the run: this needs vitest's `forks` pool (a worker
 * thread cannot chdir), and runs in one file must not overlap (no `concurrent`).
 */
export async function runMain(argv: string[], options: MainOptions = {}): Promise<MainResult> {
  const ownDir = options.cwd === undefined ? mkdtempSync(join(tmpdir(), 'mcp-spy-main-')) : undefined;
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  const cwdBefore = process.cwd();
  const undo = [setEnv({ FORCE_COLOR: '0', ...options.env }), capture(process.stdout, stdout), capture(process.stderr, stderr)];
  try {
    process.chdir(options.cwd ?? ownDir!);
    const code = await main(argv);
    const bytes = Buffer.concat(stdout);
    return { code, stdout: bytes, text: bytes.toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') };
  } finally {
    process.chdir(cwdBefore);
    for (const restore of undo.reverse()) restore();
    if (ownDir) rmSync(ownDir, { recursive: true, force: true });
  }
}
