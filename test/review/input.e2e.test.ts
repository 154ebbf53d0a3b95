import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/faults.js';
import { bin, runBinSync, tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-input-');
afterAll(() => temp.remove());

const capture = [
  '-> {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"q":"mcp"}}}',
  '<- {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"found"}],"isError":true}}',
  'this line is not part of the capture',
  '-> {"jsonrpc":"2.0","id":2,"method":"ping"}',
  '<- {"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}}',
].join('\n');

describe('reading plain "-> {json}" / "<- {json}" captures', () => {
  const file = temp.file('capture.log', `${capture}\r\n`);

  it('classifies and correlates them through the pipeline, and skips an unreadable line with its number', () => {
    const result = runBinSync(['view', file]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`mcp-spy: ${file}:3: not a "-> {json}" or "<- {json}" line; skipped\n`);
    // The renderer's own layout is tested with it; here: each frame classified and paired, no time.
    const shown = result.text.split('\n');
    expect(shown.pop()).toBe('');
    const expected = [
      /^\?\?:\?\?:\?\?\.\?\?\? -> request +tools\/call #1 tool=search /,
      /^\?\?:\?\?:\?\?\.\?\?\? <- tool-error +tools\/call #1 tool=search "found"$/,
      /^\?\?:\?\?:\?\?\.\?\?\? -> request +ping #2$/,
      /^\?\?:\?\?:\?\?\.\?\?\? <- proto-error +ping #2 -32601 Method not found/,
    ];
    expect(shown).toHaveLength(expected.length);
    shown.forEach((line, at) => expect(line).toMatch(expected[at]!));
  });

  it('feeds stats and check like a record', () => {
    const stats = JSON.parse(runBinSync(['stats', file, '--format', 'json']).text);
    expect(stats.tools.search).toEqual({ count: 1, protocolErrors: 0, toolErrors: 1 });
    expect(stats.methods.ping).toEqual({ count: 1, protocolErrors: 1, toolErrors: 0 });
    expect(runBinSync(['check', file]).code).toBe(0);
  });
});

describe('view --follow', () => {
  it('prints lines appended to a record being written, and stops on SIGINT', async () => {
    const record = join(temp.dir, 'live.jsonl');
    const line = (seq: number) =>
      `${JSON.stringify({ v: 1, seq, t: `2026-07-28T10:00:0${seq}.000Z`, session: 's', dir: 'c2s', kind: 'request', method: 'ping', id: seq, raw: `{"jsonrpc":"2.0","id":${seq},"method":"ping"}` })}\n`;
    writeFileSync(record, line(1));
    const child = spawn(process.execPath, [bin, 'view', record, '--follow'], { env: { ...process.env, FORCE_COLOR: '0' } });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    const until = (test: () => boolean, what: string) => waitUntil(test, 40_000, what);
    // Bytes the follower has read so far, from any file (Linux counts them for the whole process).
    const bytesRead = () => Number(/^rchar: (\d+)$/m.exec(readFileSync(`/proc/${child.pid}/io`, 'utf8'))![1]);
    await until(() => out.includes('ping #1'), 'the first line');
    // Half a line first: it is shown only once its newline is written. Once the follower has read
    // it (its byte count grew by as much), it has had its chance to show it too early.
    const second = line(2);
    const before = bytesRead();
    appendFileSync(record, second.slice(0, 40));
    await until(() => bytesRead() >= before + 40, 'the follower to read the half line');
    expect(out).not.toContain('ping #2');
    appendFileSync(record, second.slice(40));
    await until(() => out.includes('ping #2'), 'the whole second line');
    expect(out).toBe('10:00:01.000 -> request     ping #1\n10:00:02.000 -> request     ping #2\n');
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exit).toBe(0);
    expect(readFileSync(record, 'utf8')).toBe(line(1) + line(2));
  });
});
