import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { framesOf, readEntries, runBin, tempDir } from '../helpers/spy.js';

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
});
