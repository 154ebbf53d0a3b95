import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture, node, readEntries, runBin, tempDir } from '../helpers/spy.js';

// A hostile baseline (lock) file crashed `check --baseline` (exit 70, "Cannot convert object to
// primitive value", or a stack overflow hashing a definition 50,000 levels deep) and kept the live
// spy from ever starting its server. Now check refuses it in one line, and a spy says so in one
// line and runs its server without pins.
const temp = tempDir();
afterAll(() => temp.remove());

const deep = 50_000;
const hostile: [string, string, RegExp][] = [
  [
    'a format that is an object',
    '{"mcpSpyBaseline":{"toString":1},"servers":{}}',
    /baseline format \{"toString":1\} is not one this mcp-spy reads \(it reads 1, a number\)/,
  ],
  ['a format that is the string "1"', '{"mcpSpyBaseline":"1","servers":{}}', /baseline format "1" is not one this mcp-spy reads/],
  [
    'a definition 50,000 levels deep',
    `{"mcpSpyBaseline":1,"servers":{"s":{"tools":{"t":{"sha256":"x","definition":${'{"a":'.repeat(deep)}1${'}'.repeat(deep)}}}}}}`,
    /a tool definition nests deeper than 1000 levels/,
  ],
];
const record = temp.file('ping.jsonl', `${JSON.stringify({ v: 2, seq: 1, t: '2026-07-28T10:00:00.000Z', session: 's1', kind: 'spawn', command: ['x'] })}\n`);

describe('a baseline file that cannot be used', () => {
  it.each(hostile)('check refuses %s in one line, exit 2', async (_name, text, message) => {
    const lock = temp.file('lock.json', text);
    const result = await runBin(['check', record, '--baseline', lock]);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toContain('internal error');
    expect(result.code).toBe(2);
  });

  it.each(hostile)('the spy says so in one line and runs its server, recorded, with %s', async (_name, text, message) => {
    const lock = temp.file('lock.json', text);
    const wire = join(temp.dir, `wire-${Math.random().toString(36).slice(2)}.jsonl`);
    const input = '{"jsonrpc":"2.0","id":1,"method":"ping"}\n';
    const result = await runBin(['--baseline', lock, '--record', wire, '--no-log', '-q', '--', node, fixture('servers', 'echo-server.js')], { input });
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/; tools are not compared with a baseline in this run\n$/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.text).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n');
    expect(result.code).toBe(0);
    expect(
      readEntries(wire)
        .filter((entry) => entry.dir)
        .map((entry) => entry.kind),
    ).toEqual(['request', 'response']);
  });

  it('a byte order mark before the JSON is read past, as records read past it', async () => {
    const lock = temp.file('bom.json', '\uFEFF{"mcpSpyBaseline":1,"servers":{}}\n');
    const result = await runBin(['check', record, '--baseline', lock]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});
