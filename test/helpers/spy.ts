import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RecordEntry } from '../../src/record/schema.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const bin = join(root, 'bin', 'mcp-spy.js');
export const fixture = (...parts: string[]) => join(root, 'fixtures', ...parts);
export const everythingServer = join(root, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

export function tempDir(prefix = 'mcp-spy-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
}

export interface RunOptions {
  input?: Buffer | string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Called once the process runs, to talk to it or signal it. */
  onStart?: (child: ReturnType<typeof spawn>) => void;
}

/** Runs the built mcp-spy with arguments; resolves with everything it wrote and how it ended. */
export function runBin(args: string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: options.cwd ?? tempDir(),
      env: { ...process.env, FORCE_COLOR: '0', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout: Buffer.concat(stdout), stderr }));
    child.stdin.on('error', () => {});
    options.onStart?.(child);
    if (options.input !== undefined) child.stdin.end(options.input);
    else if (!options.onStart) child.stdin.end();
  });
}

export function readEntries(path: string): RecordEntry[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as RecordEntry);
}

export const frames = (entries: RecordEntry[]) => entries.filter((entry) => entry.dir === 'c2s' || entry.dir === 's2c');
