import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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

  it('stops at an unreadable line with --strict', () => {
    const result = runBinSync(['view', file, '--strict']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`mcp-spy: ${file}:3: not a "-> {json}" or "<- {json}" line\n`);
  });
});

describe('files that cannot be read: one clear line each, exit 2', () => {
  const cases: [string, () => string, RegExp][] = [
    ['a missing file', () => join(temp.dir, 'nothing.jsonl'), /^mcp-spy: cannot read .*nothing\.jsonl: no such file\n$/],
    ['a directory', () => {
      const dir = join(temp.dir, 'a-dir');
      mkdirSync(dir, { recursive: true });
      return dir;
    }, /^mcp-spy: cannot read .*a-dir: is a directory\n$/],
    ['an unknown format', () => temp.file('notes.txt', 'hello\nworld\n'), /^mcp-spy: .*notes\.txt: unknown format \(line 1\): expected an mcp-spy record \(wire\.jsonl\) or a "-> \{json\}" \/ "<- \{json\}" capture\n$/],
    ['a human log', () => temp.file('wire.log', '20:46:23.515 -> request     initialize #0\n'), /^mcp-spy: .*wire\.log is a human log \(wire\.log\), which cannot be read back; use the record written beside it \(wire\.jsonl\)\n$/],
    ['a newer record version', () => temp.file('future.jsonl', '{"v":1,"seq":1,"t":"2026-07-28T10:00:00.000Z","kind":"spawn"}\n{"v":99,"seq":2,"t":"2026-07-28T10:00:01.000Z","kind":"spawn"}\n'), /^mcp-spy: .*future\.jsonl:2: record version 99 is newer than this mcp-spy reads \(2\); upgrade mcp-spy\n$/],
  ];
  for (const [what, make, message] of cases) {
    it(`${what}`, () => {
      const path = make();
      for (const command of ['view', 'stats', 'check']) {
        const result = runBinSync([command, path]);
        expect(result.stderr, command).toMatch(message);
        expect(result.code, command).toBe(2);
      }
    });
  }

  it('a bad filter expression', () => {
    const record = temp.file('ok.jsonl', '{"v":1,"seq":1,"t":"2026-07-28T10:00:00.000Z","kind":"spawn"}\n');
    const expectations: [string, string][] = [
      ['latency >', "mcp-spy: bad filter expression: expected a value after '>' at column 10\n"],
      ['speed > 5', "mcp-spy: bad filter expression: unknown field 'speed' (fields: kind, dir, method, tool, prompt, uri, id, session, seq, latency, code, error, rev, bytes, time, note, text) at column 1\n"],
      ['(tool = "a"', 'mcp-spy: bad filter expression: expected ")" at column 12\n'],
      ['tool = "a', 'mcp-spy: bad filter expression: unterminated string at column 8\n'],
    ];
    for (const [expression, line] of expectations) {
      const result = runBinSync(['view', record, '--filter', expression]);
      expect(result.stderr, expression).toBe(line);
      expect(result.code, expression).toBe(2);
    }
  });
});

describe('view --follow', () => {
  it('prints lines appended to a record being written, and stops on SIGINT', async () => {
    const record = join(temp.dir, 'live.jsonl');
    const line = (seq: number) => `${JSON.stringify({ v: 1, seq, t: `2026-07-28T10:00:0${seq}.000Z`, session: 's', dir: 'c2s', kind: 'request', method: 'ping', id: seq, raw: `{"jsonrpc":"2.0","id":${seq},"method":"ping"}` })}\n`;
    writeFileSync(record, line(1));
    const child = spawn(process.execPath, [bin, 'view', record, '--follow'], { env: { ...process.env, FORCE_COLOR: '0' } });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    const until = async (test: () => boolean) => {
      for (let waited = 0; !test() && waited < 15_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    };
    await until(() => out.includes('ping #1'));
    // Half a line first: it is shown only once its newline is written.
    const second = line(2);
    appendFileSync(record, second.slice(0, 40));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(out).not.toContain('ping #2');
    appendFileSync(record, second.slice(40));
    await until(() => out.includes('ping #2'));
    expect(out).toBe('10:00:01.000 -> request     ping #1\n10:00:02.000 -> request     ping #2\n');
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exit).toBe(0);
    expect(readFileSync(record, 'utf8')).toBe(line(1) + line(2));
  });
});
