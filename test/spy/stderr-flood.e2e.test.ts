import { closeSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecord, request } from '../helpers/faults.js';
import { fixture, node, runBin, tempDir } from '../helpers/spy.js';

// A server that writes a lot to stderr, quickly: under the spy it must run as it does directly,
// whoever reads the spy's stderr (a pipe, a file, nobody at all).
const flood = [node, fixture('faults', 'stderr-flood.js')];

describe('a server that floods stderr', () => {
  it.each([
    ['a pipe', 'pipe' as const],
    ['/dev/null', 'ignore' as const],
  ])('writes 64 MiB at once and still answers and exits, the spy stderr going to %s', async (_name, stderr) => {
    const dir = tempDir().dir;
    const result = await runBin(['-q', '--', ...flood], { cwd: dir, input: request(1), stderr, env: { MIB: '64' } });
    expect(result.code).toBe(0);
    expect(result.text).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n');
    if (stderr === 'pipe') expect(result.stderr.length).toBeGreaterThanOrEqual(64 * 1024 * 1024);
    const entries = readRecord(join(dir, 'wire.jsonl'));
    expect(entries.at(-1)).toMatchObject({ kind: 'exit', code: 0 });
    // Stderr may crowd itself out of the record, never the frames: the response is there.
    expect(entries.find((entry) => entry.kind === 'response')).toMatchObject({ id: 1 });
  });

  it('writes 64 MiB at once, the spy stderr going to a file that gets every byte', async () => {
    const dir = tempDir().dir;
    const path = join(dir, 'stderr.txt');
    const fd = openSync(path, 'w');
    const result = await runBin(['-q', '--no-record', '--no-log', '--', ...flood], { cwd: dir, input: request(1), stderr: fd, env: { MIB: '64' } });
    closeSync(fd);
    expect(result.code).toBe(0);
    expect(result.text).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n');
    expect(statSync(path).size).toBe(64 * 1024 * 1024);
  });

  it('logs 64 KiB of stderr per request: every request is answered and the spy exits', async () => {
    const dir = tempDir().dir;
    const requests = Array.from({ length: 500 }, (_, index) => request(index + 1)).join('');
    const result = await runBin(['-q', '--', ...flood], { cwd: dir, input: requests, env: { MIB: '0', PER_REQUEST_KIB: '64' } });
    expect(result.code).toBe(0);
    expect(result.text.split('\n').filter((line) => line !== '')).toHaveLength(500);
    expect(result.stderr.length).toBe(500 * 64 * 1024);
    expect(readRecord(join(dir, 'wire.jsonl')).at(-1)).toMatchObject({ kind: 'exit', code: 0 });
  });
});
