// Shared by the replay and mock tests: the built bin, real peers, temporary recordings.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const bin = join(root, 'bin/mcp-spy.js');
export const fixture = (name: string) => join(root, 'fixtures/replay', name);
export const everythingServer = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const node = process.execPath;

export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-spy-replay-test-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs the built mcp-spy; never rejects. */
export function runBin(args: string[], options: { input?: string; env?: Record<string, string> } = {}) {
  return execa(node, [bin, ...args], { reject: false, input: options.input ?? '', env: options.env ?? {}, timeout: 60_000 });
}

/** Runs a client script from fixtures/replay and parses the JSON it prints. */
export async function runClient(script: string, args: string[], env: Record<string, string> = {}): Promise<unknown> {
  const result = await execa(node, [fixture(script), ...args], { env, reject: false, timeout: 60_000 });
  if (result.exitCode !== 0) throw new Error(`${script} failed (${result.exitCode}): ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** Records a client script's session with the stdio spy; returns the client's results. */
export function recordSession(script: string, record: string, server: string[], env: Record<string, string> = {}) {
  return runClient(script, ['--', node, bin, '--record', record, '--no-log', '-q', '--', ...server], env);
}

export function readEntries(record: string): Record<string, unknown>[] {
  return readFileSync(record, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Starts a process that prints its URL (on stdout or stderr) once it listens; resolves with it. */
export async function startListening(command: string, args: string[], pattern: RegExp, env: Record<string, string> = {}): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match) resolve(match[1] ?? match[0]);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited (${code}) before listening: ${seen}`)));
    setTimeout(() => reject(new Error(`not listening after 15s: ${seen}`)), 15_000);
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return { url, child, stop };
}

/** A free TCP port on 127.0.0.1, for servers that take a PORT rather than port 0. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
