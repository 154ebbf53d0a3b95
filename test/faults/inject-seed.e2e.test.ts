// --seed repeats a probabilistic run; a rule that matches nothing changes no byte.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { awkwardLines, readEntries, runBin, tempDir } from '../helpers/spy.js';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const calls = Array.from({ length: 40 }, (_, i) => `{"jsonrpc":"2.0","id":${i + 1},"method":"tools/call","params":{"name":"t${i % 3}"}}\n`).join('');

/** `cat` as the server, so what the server was given comes straight back: one run, its output and its fault events. */
async function run(args: string[], input: Buffer | string = calls) {
  const dir = tempDir().dir;
  const result = await runBin(['--record', 'r.jsonl', '--no-log', '-q', ...args, '--', 'cat'], { input, cwd: dir });
  expect(result.code).toBe(0);
  const faults = readEntries(join(dir, 'r.jsonl')).filter((entry) => entry.kind === 'fault');
  return { output: result.stdout, faulted: faults.map((fault) => fault.id) };
}

describe('--seed', () => {
  it('repeats the same faults on the same frames twice in a row; another seed chooses others', async () => {
    const rule = ['--fault', 'tools/call dir=c2s p=0.5: drop'];
    const first = await run([...rule, '--seed', '7']);
    const second = await run([...rule, '--seed', '7']);
    expect(first.faulted.length).toBeGreaterThan(5);
    expect(first.faulted.length).toBeLessThan(35);
    expect(second.faulted).toEqual(first.faulted);
    expect(sha(second.output)).toBe(sha(first.output));
    // What was dropped never reached the server (cat gives back exactly what it was given).
    const returned = first.output
      .toString()
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: number }).id);
    expect(returned.filter((id) => first.faulted.includes(id))).toEqual([]);
    expect(returned.length + first.faulted.length).toBe(40);
    const other = await run([...rule, '--seed', '8']);
    expect(other.faulted).not.toEqual(first.faulted);
  });
});

describe('a rule that matches nothing', () => {
  it('passes CRLF, blank lines, bytes that are not UTF-8 and a last line without newline untouched', async () => {
    const input = awkwardLines;
    const { output, faulted } = await run(['--fault', 'resources/read: drop'], input);
    expect(faulted).toEqual([]);
    expect(sha(output)).toBe(sha(input));
  });
});
