import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin, framesOf, node, readEntries, runBin, tempDir } from '../helpers/spy.js';

describe('mcp-spy demo', () => {
  it('shows every kind of frame from a real client and server, and says where the files are', async () => {
    const dir = tempDir().dir;
    const result = await runBin(['demo', '--dir', dir]);
    expect(result.code).toBe(0);
    const out = result.stdout.toString();
    expect(out).toContain(`The record: ${join(dir, 'wire.jsonl')}`);
    expect(out).toContain('tools/fly: MCP error -32601');
    const kinds = new Set(framesOf(readEntries(join(dir, 'wire.jsonl'))).map((entry) => entry.kind));
    expect([...kinds].sort()).toEqual(['invalid', 'notification', 'protocol-error', 'request', 'response', 'tool-error']);
    expect(readFileSync(join(dir, 'wire.log'), 'utf8')).toContain('!stdout-noise');
    expect(result.stderr).toContain('<- tool-error');
  });

  it('makes a missing --dir tree private (0700) whatever the umask', () => {
    const dir = join(tempDir().dir, 'a', 'b');
    const result = spawnSync('sh', ['-c', 'umask 000 && exec "$@"', 'sh', node, bin, 'demo', '--dir', dir], {
      encoding: 'utf8',
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    expect(result.status).toBe(0);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, '..')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'wire.jsonl')).mode & 0o777).toBe(0o600);
  });

  it('refuses in one line (exit 2) a --dir it cannot create, even under /proc (a recursive mkdir looped there for ever)', () => {
    const result = spawnSync(node, [bin, 'demo', '--dir', '/proc/nope/deeper'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    expect(result.signal).toBeNull();
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('mcp-spy: cannot create the demo directory /proc/nope/deeper: no such file or directory\n');
    expect(result.stdout).toBe('');
  });
});
