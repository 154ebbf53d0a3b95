import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecord, request } from '../helpers/faults.js';
import { bin, node, tempDir } from '../helpers/spy.js';

// Under an address-space limit (ulimit -v, prlimit --as) starting the observer thread made V8 abort
// the whole process (exit 133: it could not reserve its code range) before the server ever ran.
// The limits are those measured with Node 20 on Linux x64, where the spy alone takes about 1 GB of
// address space (reservations, not memory).
const calls = [1, 2, 3].map((id) => request(id)).join('');

function spyUnder(limitBytes: number, dir: string) {
  return spawnSync('prlimit', [`--as=${limitBytes}`, node, bin, '-q', '--record', join(dir, 'wire.jsonl'), '--no-log', '--', 'cat'], {
    cwd: dir,
    input: calls,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
  });
}

describe('an address-space limit', () => {
  it('that leaves room for the observer thread: the session is recorded (its code range is kept small)', () => {
    const dir = tempDir().dir;
    const result = spyUnder(1_300_000_000, dir);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(calls);
    expect(readRecord(join(dir, 'wire.jsonl')).filter((entry) => entry.kind === 'request' && entry.dir === 'c2s')).toHaveLength(3);
  });

  it('that leaves none: the traffic is forwarded unrecorded, and the spy says so in one line', () => {
    const dir = tempDir().dir;
    const result = spyUnder(1_000_000_000, dir);
    expect(result.stderr).toMatch(
      /^mcp-spy: the address-space limit leaves \d+ MiB, less than the 128 MiB the observer thread needs: the traffic is forwarded unrecorded\n$/,
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(calls);
    expect(existsSync(join(dir, 'wire.jsonl'))).toBe(false);
  });
});
