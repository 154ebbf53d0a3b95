import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createChecker } from '../../src/check/engine.js';
import { readRecording } from '../../src/record/open-recording.js';

/** A temporary directory removed after the test file's run. */
export function tempDir(prefix = 'mcp-spy-test-'): { dir: string; file: (name: string, text: string) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    file: (name, text) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs the checker over a recording file, as `check` does. */
export async function checkFile(path: string) {
  const checker = createChecker();
  for await (const { entry, lineNo } of readRecording(path)) checker.add(entry, lineNo);
  return checker.finish();
}

export const binPath = fileURLToPath(new URL('../../bin/mcp-spy.js', import.meta.url));

/** Runs the built bin with arguments, to its end; stdout as bytes-faithful text. */
export function runBin(args: string[], options: { input?: string; cwd?: string } = {}) {
  const result = spawnSync(process.execPath, [binPath, ...args], {
    input: options.input,
    cwd: options.cwd,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { stdout: result.stdout, stderr: result.stderr, status: result.status };
}

/** Records a real session: the SDK client against server-everything over stdio, through the built spy. */
export function recordEverything(dir: string): { record: string; log: string } {
  const record = join(dir, 'wire.jsonl');
  const log = join(dir, 'wire.log');
  const client = fileURLToPath(new URL('../../fixtures/review/everything-client.js', import.meta.url));
  const result = spawnSync(process.execPath, [client, record, log], { encoding: 'utf8', env: process.env, timeout: 60_000 });
  if (result.status !== 0) throw new Error(`the fixture client failed: ${result.stderr}`);
  return { record, log };
}

/** Records a real 2026-07-28 session: the SDK v2 client against a v2 server over stdio, through the built spy. */
export function recordV2(dir: string): { record: string; log: string } {
  const record = join(dir, 'v2.jsonl');
  const log = join(dir, 'v2.log');
  const client = fileURLToPath(new URL('../../fixtures/review/client-v2.js', import.meta.url));
  const result = spawnSync(process.execPath, [client, record, log], { encoding: 'utf8', env: process.env, timeout: 60_000 });
  if (result.status !== 0) throw new Error(`the v2 fixture client failed: ${result.stderr}`);
  return { record, log };
}
