import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryLine, writeRecording } from '../helpers/record-lines.js';
import { fixture, node, runBin, tempDir, type RunResult } from '../helpers/spy.js';

// Issue 8: replay printed terminal escapes from the recording (a clipboard write, a screen clear,
// a title change) as they were. Every output of every reader now goes through the one sanitiser.
const osc52 = '\u001b]52;c;SGVsbG8=\u0007';
const clear = '\u001b[2J';
const title = '\u001b]0;pwned\u0007';
const csi = '\u009b31m';
/** Any control a terminal acts on, but the newline that ends each line. */
const controls = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

const method = `evil${osc52}`;
const tool = `tool${clear}`;
const session = `s${title}`;
const params = { name: tool, arguments: { [`k${csi}`]: `v${osc52}` } };
const temp = tempDir();
const record = join(temp.dir, 'escapes.jsonl');
const changed = join(temp.dir, 'changed.jsonl');
const echoServer = [node, fixture('servers', 'echo-server.js')];

beforeAll(async () => {
  await writeRecording(record, [
    entryLine(1, { kind: 'spawn', command: ['node', `server${title}.js`] }, undefined, session),
    entryLine(2, { dir: 'c2s', kind: 'request', method, id: 1 }, { id: 1, method, params: { q: `a${csi}` } }, session),
    entryLine(3, { dir: 's2c', kind: 'response', method, id: 1, related: { seq: 2, id: 1, method } }, { id: 1, result: { q: `a${csi}` } }, session),
    entryLine(4, { dir: 'c2s', kind: 'request', method: 'tools/call', tool, id: 2 }, { id: 2, method: 'tools/call', params }, session),
    entryLine(
      5,
      { dir: 's2c', kind: 'response', method: 'tools/call', tool, id: 2, related: { seq: 4, id: 2, method: 'tools/call', tool } },
      { id: 2, result: params },
      session,
    ),
    entryLine(6, { dir: 'c2s', kind: 'request', method: `x${csi}`, id: 3 }, { id: 3, method: `x${csi}` }, session),
    entryLine(
      7,
      { dir: 's2c', kind: 'protocol-error', method: `x${csi}`, id: 3, error: { code: -32601, message: `no${clear}` } },
      { id: 3, error: { code: -32601, message: `no${clear}` } },
      session,
    ),
    entryLine(8, { kind: 'stderr', raw: `${title}server says${osc52}` }, undefined, session),
    entryLine(9, { dir: 's2c', kind: 'invalid', notes: [`stdout-noise${clear}`], bytes: 5, raw: `noise${osc52}` }, undefined, session),
  ]);
  await writeRecording(changed, [
    entryLine(1, { dir: 'c2s', kind: 'request', method, id: 1 }, { id: 1, method, params: { a: `now${osc52}` } }, session),
    entryLine(2, { dir: 's2c', kind: 'response', method, id: 1 }, { id: 1, result: { a: `then${csi}`, b: title } }, session),
  ]);
});
afterAll(() => temp.remove());

function expectPrintable(result: RunResult) {
  expect(result.text).not.toMatch(controls);
  expect(result.stderr).not.toMatch(controls);
  expect(result.text + result.stderr).not.toMatch(/internal error/);
}

describe('terminal controls recorded from the wire', () => {
  it.each([
    ['view', []],
    ['view --full', ['--full']],
  ])('%s shows them as visible escapes', async (_name, extra) => {
    const result = await runBin(['view', record, ...extra]);
    expectPrintable(result);
    expect(result.text).toContain('evil\\u001b]52;c;SGVsbG8=\\u0007');
    expect(result.text).toContain('tool=tool\\u001b[2J');
    expect(result.text).toContain('server says\\u001b]52');
  });

  it.each(['json', 'jsonl'])('view --format %s escapes them and keeps them', async (format) => {
    const result = await runBin(['view', record, '--format', format]);
    expectPrintable(result);
    const entries =
      format === 'json'
        ? JSON.parse(result.text)
        : result.text
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line));
    expect(entries[1].method).toBe(method);
    expect(entries[0].session).toBe(session);
    expect(entries[3].msg.params).toEqual(params);
  });

  it.each(['text', 'markdown', 'json'])('stats --format %s', async (format) => {
    const result = await runBin(['stats', record, '--format', format]);
    expectPrintable(result);
    if (format === 'json') expect(Object.keys(JSON.parse(result.text).methods)).toContain(method);
    else expect(result.text).toContain('evil\\u001b]52;c;SGVsbG8=\\u0007');
  });

  it.each(['text', 'json', 'junit', 'sarif'])('check --format %s', async (format) => {
    const result = await runBin(['check', record, '--format', format]);
    expectPrintable(result);
    expect(result.code).toBe(1);
    if (format === 'json') expect(JSON.parse(result.text).findings.some((finding: { session: string }) => finding.session === session)).toBe(true);
    if (format === 'sarif')
      expect(JSON.parse(result.text).runs[0].results.some((r: { properties?: { session: string } }) => r.properties?.session === session)).toBe(true);
    if (format === 'text') expect(result.text).toContain('[seq 5, session s\\u001b]0;pwned\\u0007]');
    if (format === 'text' || format === 'junit') expect(result.text).toContain('the result of tool tool\\u001b[2J has no content array');
  });

  it.each(['text', 'junit', 'json'])('replay --format %s, the same answers and a changed one', async (format) => {
    const same = await runBin(['replay', record, '--format', format, '--', ...echoServer]);
    expectPrintable(same);
    if (format === 'json') expect(JSON.parse(same.text).sessions[0].items[0].method).toBe(method);
    else expect(same.text).toContain('evil\\u001b]52;c;SGVsbG8=\\u0007');
    const diff = await runBin(['replay', changed, '--format', format, '--', ...echoServer]);
    expectPrintable(diff);
    expect(diff.code).toBe(1);
    if (format === 'json')
      expect(JSON.parse(diff.text).sessions[0].items[0].diff).toContainEqual({
        path: 'result.a',
        change: 'changed',
        recorded: `then${csi}`,
        actual: `now${osc52}`,
      });
    else expect(diff.text).toContain(format === 'junit' ? '&quot;then\\u009b31m&quot;' : '"then\\u009b31m"');
  });

  it("mock's lines on stderr quote a client's request safely", async () => {
    const input = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: `unknown${csi}` })}\n`;
    const result = await runBin(['mock', record, '--on-miss', 'close'], { input });
    expectPrintable(result);
    expect(result.stderr).toContain('mcp-spy mock: no recorded answer for {"jsonrpc":"2.0","id":1,"method":"unknown\\u009b31m"}; closing (--on-miss close)');
    expect(result.code).toBe(1);
  });
});
