import { cpSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountedBytes, readRecord } from '../helpers/faults.js';
import { freePort, run } from '../helpers/http-spy.js';
import { fixture, node, root, runBin, tempDir } from '../helpers/spy.js';

// An observer thread that stops (here its module is missing, as when dist/ is rebuilt while a spy
// starts) leaves the traffic flowing: the record and the log still end with what happened, and
// their gaps say that the observer stopped and why, not that time ran out finishing.

let copy: string;
let removeCopy: () => void;

beforeAll(() => {
  const temp = tempDir();
  copy = temp.dir;
  removeCopy = temp.remove;
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(root, part), join(copy, part), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
  rmSync(join(copy, 'dist', 'observer', 'thread-entry.js'));
});
afterAll(() => removeCopy());

describe('a spy whose observer thread stopped', () => {
  it('forwards every byte, and its record and log end with gaps that say the observer stopped and why', async () => {
    const { dir, remove } = tempDir();
    const input = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`;
    const result = await runBin(['--', 'cat'], { bin: join(copy, 'bin', 'mcp-spy.js'), input, cwd: dir });
    expect(result.code).toBe(0);
    expect(result.text).toBe(input);
    expect(result.stderr).toContain('mcp-spy: the observer stopped (Cannot find module');
    expect(result.stderr).toContain('the record ends with a gap for what the observer did not record');
    expect(result.stderr).not.toContain('did not finish in time');

    const entries = readRecord(join(dir, 'wire.jsonl'));
    expect(entries.map((entry) => entry.kind)).toEqual(['spawn', 'gap', 'gap', 'exit']);
    for (const gap of entries.filter((entry) => entry.kind === 'gap')) {
      expect(gap.reason).toMatch(/^the observer stopped \(Cannot find module .*thread-entry\.js'\); these bytes were forwarded but not recorded$/);
    }
    expect(accountedBytes(entries, 'c2s')).toBe(input.length);
    expect(accountedBytes(entries, 's2c')).toBe(input.length);

    // The log, which the observer would have written, is not left empty.
    const log = readFileSync(join(dir, 'wire.log'), 'utf8').trimEnd().split('\n');
    expect(log).toHaveLength(4);
    expect(log[1]).toMatch(/ GAP +the observer stopped \(Cannot find module .* lost=\d+$/);
    expect(log[0]).toMatch(/ spawn +cat pid=\d+/);
    expect(log[3]).toMatch(/ exit +code=0$/);
    remove();
  });

  it('on HTTP: every exchange answered, and the record ends with a gap per side that says the observer stopped', async () => {
    const { dir, remove } = tempDir();
    const port = await freePort();
    const spy = await run(
      node,
      [
        join(copy, 'bin', 'mcp-spy.js'),
        'http',
        '--quiet',
        '--target',
        `http://127.0.0.1:${port}/mcp`,
        '--',
        node,
        fixture('http', 'tool-server.js'),
        '--json',
        '--port',
        String(port),
      ],
      /mcp-spy: listening on (\S+),/,
      { cwd: dir },
    );
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    });
    const answer = await fetch(spy.url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    });
    expect(answer.status).toBe(200);
    const answered = await answer.text();
    expect(answered).toContain('"id":1');
    expect(await spy.stop()).toBe(0);
    expect(spy.stderr()).toContain('the observer stopped (Cannot find module');
    const gaps = readRecord(join(dir, 'wire.jsonl')).filter((entry) => entry.kind === 'gap');
    expect(gaps.map((gap) => [gap.stream, gap.lost])).toEqual([
      ['c2s', body.length],
      ['s2c', Buffer.byteLength(answered)],
    ]);
    for (const gap of gaps) expect(gap.reason).toMatch(/^the observer stopped \(Cannot find module /);
    expect(readFileSync(join(dir, 'wire.log'), 'utf8')).toContain('GAP         the observer stopped');
    remove();
  });
});
