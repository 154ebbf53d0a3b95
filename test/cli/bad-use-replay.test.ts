// Bad use of replay and mock, run in-process through main(argv): refused while the recording and the
// options are read, before a server starts or a port opens. What needs a server (one not found, one
// that dies at once, a target nobody listens on, a busy port) stays in the end-to-end tests.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain, type MainResult } from '../helpers/in-process.js';
import { entryLine, writeRecording } from '../helpers/record-lines.js';
import { fixture, node, tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-bad-replay-');
const record = join(temp.dir, 'wire.jsonl');
const server = [node, fixture('servers', 'greet-server.js')];

const initialize = { id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };
const initialized = { id: 1, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } };

beforeAll(async () => {
  await writeRecording(record, [
    entryLine(1, { kind: 'spawn', command: server }),
    entryLine(2, { dir: 'c2s', kind: 'request', method: 'initialize', id: 1 }, initialize),
    entryLine(3, { dir: 's2c', kind: 'response', method: 'initialize', id: 1, related: { seq: 2, id: 1, method: 'initialize' } }, initialized),
    entryLine(4, { dir: 'c2s', kind: 'request', method: 'tools/list', id: 2 }, { id: 2, method: 'tools/list' }),
    entryLine(
      5,
      { dir: 's2c', kind: 'response', method: 'tools/list', id: 2, related: { seq: 4, id: 2, method: 'tools/list' } },
      { id: 2, result: { tools: [] } },
    ),
  ]);
});
afterAll(() => temp.remove());

describe('replay: bad input, one line each', () => {
  const badRecord = () => {
    const path = join(temp.dir, 'corrupt.jsonl');
    writeFileSync(path, `${readFileSync(record, 'utf8').split('\n').slice(0, 3).join('\n')}\n{"v":1,"seq":4,oops\n`);
    return path;
  };
  const cases: [string, () => string[], RegExp, number][] = [
    ['a missing recording', () => ['replay', join(temp.dir, 'nope.jsonl'), '--', ...server], /^mcp-spy: cannot read .*nope\.jsonl: no such file\n$/, 2],
    ['a corrupt line', () => ['replay', badRecord(), '--', ...server], /^mcp-spy: .*corrupt\.jsonl:4: corrupt record line \(not JSON\)\n$/, 2],
    ['no server and no target', () => ['replay', record], /^mcp-spy: give the server command after -- or --target URL \(one of them\)\n$/, 2],
    ['a target that is not a URL', () => ['replay', record, '--target', 'nowhere'], /^mcp-spy: --target nowhere: not a URL\n$/, 2],
    [
      'an ignore path that cannot be read',
      () => ['replay', record, '--ignore', '$[[[', '--', ...server],
      /^mcp-spy: bad ignore path \$\[\[\[: cannot read it from "\[\[\[" .*\n$/,
      2,
    ],
    [
      'an unknown format',
      () => ['replay', record, '--format', 'xml', '--', ...server],
      /^mcp-spy replay: option '--format <format>' argument 'xml' is invalid: expected one of text, json, junit \(see mcp-spy replay --help\)\n$/,
      2,
    ],
  ];
  it.each(cases)('%s', async (_name, args, line, exitCode) => {
    const result = await runMain(args());
    expect(result.stderr).toMatch(line);
    expect(result.text).toBe('');
    expect(result.code).toBe(exitCode);
  });

  it('a --map path that is not JSONPath is bad use', async () => {
    const result = await runMain(['replay', record, '--map', 'result..[', '--', node, fixture('servers', 'paged-server.js')]);
    expect(result.stderr).toMatch(/^mcp-spy: bad --map path result\.\.\[: /);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.code).toBe(2);
  });

  it('an unknown --session of a 2026-07-28 record is bad use', async () => {
    const v2 = join(temp.dir, 'v2.jsonl');
    const ping = (seq: number, session: string) =>
      `${JSON.stringify({ v: 2, seq, t: '2026-07-28T10:00:00.000Z', session, dir: 'c2s', kind: 'request', method: 'ping', id: seq }).slice(0, -1)},"msg":{"jsonrpc":"2.0","id":${seq},"method":"ping"}}\n`;
    writeFileSync(v2, ping(1, 'probe') + ping(2, 'main'));
    const none = await runMain(['replay', v2, '--session', 'zzz', '--', node, fixture('v2', 'server.js')]);
    expect(none.stderr).toMatch(/^mcp-spy: no session zzz in .*v2\.jsonl \(sessions: .+\)\n$/);
    expect(none.code).toBe(2);
  });
});

describe('mock: bad input, one line each', () => {
  it('refuses a missing recording, a corrupt line and a bad --listen in one line each', async () => {
    const missing = await runMain(['mock', join(temp.dir, 'none.jsonl')]);
    expect(missing.stderr).toMatch(/^mcp-spy: cannot read .*none\.jsonl: no such file\n$/);
    expect(missing.code).toBe(2);
    const corrupt = join(temp.dir, 'corrupt.jsonl');
    writeFileSync(corrupt, `${readFileSync(record, 'utf8').split('\n')[0]}\nnot a record\n`);
    const bad = await runMain(['mock', corrupt]);
    expect(bad.stderr).toMatch(/^mcp-spy: .*corrupt\.jsonl:2: corrupt record line \(not JSON\)\n$/);
    expect(bad.code).toBe(2);
    const listen = await runMain(['mock', record, '--listen', 'here']);
    expect(listen.stderr).toMatch(/^mcp-spy mock: option '--listen <host:port>' argument 'here' is invalid: expected PORT, HOST:PORT or \[IPv6\]:PORT/);
    expect(listen.code).toBe(2);
  });

  it('refuses a --speed it does not know', async () => {
    expect((await runMain(['mock', record, '--speed', '2'])).stderr).toMatch(
      /^mcp-spy mock: option '--speed <speed>' argument '2' is invalid: expected 0 \(no delays\) or 1 \(recorded timing\)/,
    );
  });
});

describe('replay and mock on what is not a record', () => {
  it('say the rendered wire.log is for people, as view does', async () => {
    const log = temp.file('wire.log', '10:00:00.000 -> request     ping #1\n');
    const line = `mcp-spy: ${log} is a human log (wire.log), which cannot be read back; use the record written beside it (wire.jsonl)\n`;
    expect(await runMain(['view', log])).toMatchObject({ code: 2, stderr: line });
    expect(await runMain(['replay', log, '--', process.execPath, fixture('servers', 'echo-server.js')])).toMatchObject({ code: 2, stderr: line });
    expect(await runMain(['mock', log])).toMatchObject({ code: 2, stderr: line });
  });
});

// Issue 8: names from the recording are quoted printable in the errors that name them.
describe('replay and mock errors on a hostile session name', () => {
  const title = '\u001b]0;pwned\u0007';
  const controls = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
  const expectPrintable = (result: MainResult) => {
    expect(result.text).not.toMatch(controls);
    expect(result.stderr).not.toMatch(controls);
  };

  it('quote it on one printable line', async () => {
    const hostile = join(temp.dir, 'escapes.jsonl');
    const session = `s${title}`;
    await writeRecording(hostile, [
      entryLine(1, { kind: 'spawn', command: ['node', `server${title}.js`] }, undefined, session),
      entryLine(2, { dir: 'c2s', kind: 'request', method: 'ping', id: 1 }, { id: 1, method: 'ping' }, session),
    ]);
    for (const command of ['replay', 'mock']) {
      const result = await runMain([
        command,
        hostile,
        '--session',
        'nope',
        ...(command === 'replay' ? ['--', node, fixture('servers', 'echo-server.js')] : []),
      ]);
      expectPrintable(result);
      expect(result.stderr).toBe(`mcp-spy: no session nope in ${hostile} (sessions: s\\u001b]0;pwned\\u0007)\n`);
      expect(result.code).toBe(2);
    }
  });
});
