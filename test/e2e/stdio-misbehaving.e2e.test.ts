import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, framesOf, readEntries, runBin, tempDir } from '../helpers/spy.js';

describe('a server that misbehaves', () => {
  it('reaches the client byte for byte, and the record says what happened', async () => {
    const dir = tempDir().dir;
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'anything', arguments: {} } },
    ];
    const expected = Buffer.concat([
      Buffer.from('Starting misbehaving server v0.1...\n'),
      Buffer.from(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'misbehaving', version: '0.1' } } })}\n`,
      ),
      Buffer.from('{"jsonrpc":"2.0","id":2,"result":{"tools":[\n'),
      Buffer.from([0xff, 0xfe, 0x41, 0x0a]),
    ]);
    const result = await runBin(['--', process.execPath, fixture('servers', 'misbehaving-server.js')], {
      cwd: dir,
      input: lines.map((line) => `${JSON.stringify(line)}\n`).join(''),
    });
    expect(result.code).toBe(3);
    expect(result.stdout.equals(expected)).toBe(true);
    expect(result.stderr).toContain('fatal: something went wrong');

    const entries = readEntries(join(dir, 'wire.jsonl'));
    const fromServer = framesOf(entries).filter((entry) => entry.dir === 's2c');
    expect(fromServer.map((entry) => [entry.kind, entry.notes])).toEqual([
      ['invalid', ['stdout-noise', 'not-json']],
      ['response', undefined],
      ['invalid', ['stdout-noise', 'not-json']],
      ['invalid', ['stdout-noise', 'not-utf8']],
    ]);
    const unanswered = entries.find((entry) => entry.kind === 'unanswered');
    expect(unanswered?.requests?.map((request) => request.method)).toEqual(['tools/list', 'tools/call']);
    expect(entries.find((entry) => entry.kind === 'stderr')).toMatchObject({ raw: 'fatal: something went wrong' });
    // What was left unanswered is known at the exit, and said after it.
    expect(entries.at(-2)).toMatchObject({ kind: 'exit', code: 3 });
    expect(entries.at(-1)).toBe(unanswered);
  });
});
