// For the fault-injection tests: what a record accounts for, whether a process lives, waiting for a condition.
import { readFileSync } from 'node:fs';
import { readEntries, type TestEntry } from './spy.js';

/** Every line of a record, each required to be one JSON object (a torn or mixed line fails the test). */
export function readRecord(path: string): TestEntry[] {
  const text = readFileSync(path, 'utf8');
  if (text !== '' && !text.endsWith('\n')) throw new Error(`${path} does not end with a newline`);
  // As readers see it: captured frames analysed in their place; every line checked against the schema.
  return readEntries(path);
}

/** Bytes of one direction the record accounts for: each frame with its line ending, plus what gaps say was lost. */
export function accountedBytes(entries: TestEntry[], dir: 'c2s' | 's2c'): number {
  let total = 0;
  for (const entry of entries) {
    // A batch is one line: its first member carries the line's size.
    const firstOfLine = entry.batch === undefined || entry.batch.index === 0;
    if (entry.dir === dir && firstOfLine) total += Number(entry.bytes) + (entry.eol === undefined ? 1 : String(entry.eol).length);
    if (entry.kind === 'gap' && entry.stream === dir) total += Number(entry.lost);
  }
  return total;
}

/** On HTTP, the body bytes of one side (c2s: requests, s2c: responses) a record accounts for: in its frames (each a whole body) or in its gaps. */
export function accountedBodyBytes(entries: TestEntry[], dir: 'c2s' | 's2c'): number {
  let total = 0;
  for (const entry of entries) {
    if (entry.dir === dir) total += Number(entry.bytes);
    if (entry.kind === 'gap' && entry.stream === dir) total += Number(entry.lost);
  }
  return total;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once `check` holds, or rejects after `timeoutMs`. */
export async function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** One JSON-RPC request line. */
export const request = (id: number, method = 'ping') => `${JSON.stringify({ jsonrpc: '2.0', id, method })}\n`;
