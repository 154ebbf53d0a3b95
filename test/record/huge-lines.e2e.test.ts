import { openSync, readSync, closeSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryLine, writeRecording } from '../helpers/record-lines.js';
import { fixture, node, runBin, tempDir } from '../helpers/spy.js';

// Issue 8: a huge line made view, stats and check exit 70 and replay and mock crash with a stack
// trace, after costing gigabytes. Readers now count a line over the limit instead of reading it.
const temp = tempDir();
const record = join(temp.dir, 'huge.jsonl');
// A heap far smaller than the line: reading the line as text would run out of memory.
const smallHeap = { NODE_OPTIONS: '--max-old-space-size=40' };
const bigCall = { id: 1, method: 'tools/call', params: { name: 'big', arguments: {} } };
const smallCall = { id: 2, method: 'tools/call', params: { name: 'small', arguments: {} } };
const hugeLine = entryLine(3, { dir: 's2c', kind: 'response', method: 'tools/call', tool: 'big', id: 1, bytes: 40 * 1024 * 1024 + 40 }).replace(
  /}\n$/,
  ',"raw":"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,\\"result\\":{\\"text\\":\\"HUGE\\"}}"}\n',
);
let hugeBytes = 0;

beforeAll(async () => {
  await writeRecording(record, [
    entryLine(1, { kind: 'spawn', command: ['node', 'server.js'] }),
    entryLine(2, { dir: 'c2s', kind: 'request', method: 'tools/call', tool: 'big', id: 1 }, bigCall),
    { huge: hugeLine, mib: 40 },
    entryLine(4, { dir: 'c2s', kind: 'request', method: 'tools/call', tool: 'small', id: 2 }, smallCall),
    entryLine(5, { dir: 's2c', kind: 'response', method: 'tools/call', tool: 'small', id: 2 }, { id: 2, result: smallCall.params }),
  ]);
  hugeBytes = Buffer.byteLength(hugeLine) - 'HUGE'.length + 40 * 1024 * 1024 - 1;
  expect(statSync(record).size).toBeGreaterThan(40 * 1024 * 1024);
});
afterAll(() => temp.remove());

const skipLine = () => `mcp-spy: ${record}:3: a line of ${hugeBytes} bytes, over the line limit of 32MiB (--max-line reads longer ones); skipped\n`;

describe('a line longer than the line limit', () => {
  it.each([
    ['view', ['view', record]],
    ['view --format json', ['view', record, '--format', 'json']],
    ['stats', ['stats', record]],
    ['check', ['check', record]],
    ['check --format sarif', ['check', record, '--format', 'sarif']],
  ])('%s says it skipped it, by number and size, in a small heap, and reads the rest', async (_name, args) => {
    const result = await runBin(args, { env: smallHeap });
    expect(result.stderr).toBe(skipLine());
    expect(result.code).toBeLessThanOrEqual(1);
    expect(result.text).toContain('small');
    expect(result.text).not.toContain('xxxx');
  });

  it('is an error with --strict: one line, exit 2', async () => {
    for (const command of ['view', 'stats', 'check']) {
      const result = await runBin([command, record, '--strict'], { env: smallHeap });
      expect(result.stderr).toBe(`mcp-spy: ${record}:3: a line of ${hugeBytes} bytes, over the line limit of 32MiB (--max-line reads longer ones)\n`);
      expect(result.code).toBe(2);
    }
  });

  it('is read whole under a --max-line above it', async () => {
    const result = await runBin(['view', record, '--max-line', '41MiB']);
    expect(result.stderr).toBe('');
    expect(result.text).toMatch(/<- response +tools\/call #1 tool=big \{"text":"xxxx/);
  });

  it('is a skipped frame for replay, which replays the rest', async () => {
    const result = await runBin(['replay', record, '--', node, fixture('servers', 'echo-server.js')], { env: smallHeap });
    expect(result.stderr).toBe(skipLine());
    expect(result.text).toMatch(/^ {2}same {4}#4 tools\/call small \(id 2\)/m);
    expect(result.text).toMatch(/^ {2}extra {3}#2 tools\/call big \(id 1\): answered now, unanswered in the recording$/m);
    expect(result.text).toMatch(/1 frame\(s\) skipped/);
    expect(result.code).toBe(1);
  });

  it('is a skipped frame for mock, which answers from the rest', async () => {
    const input = `${JSON.stringify({ jsonrpc: '2.0', ...smallCall, id: 9 })}\n`;
    const result = await runBin(['mock', record], { env: smallHeap, input });
    expect(result.stderr).toBe(skipLine());
    expect(JSON.parse(result.text)).toEqual({ jsonrpc: '2.0', id: 9, result: smallCall.params });
    expect(result.code).toBe(0);
  });

  it('is copied byte for byte when replay --update rewrites the frames around it', async () => {
    const path = join(temp.dir, 'update.jsonl');
    const stale = entryLine(2, { dir: 's2c', kind: 'response', method: 'tools/call', tool: 'small', id: 2 }, { id: 2, result: { stale: true } });
    await writeRecording(path, [
      entryLine(1, { dir: 'c2s', kind: 'request', method: 'tools/call', tool: 'small', id: 2 }, smallCall),
      stale,
      { huge: hugeLine, mib: 40 },
    ]);
    const before = statSync(path).size;
    const result = await runBin(['replay', path, '--update', '--', node, fixture('servers', 'echo-server.js')], { env: smallHeap });
    expect(result.stderr).toBe(skipLine().replace(record, path));
    expect(result.text).toMatch(/updated 1 frame\(s\) in /);
    expect(result.code).toBe(0);
    const head = Buffer.alloc(1024);
    const file = openSync(path, 'r');
    readSync(file, head, 0, head.length, 0);
    closeSync(file);
    const lines = head.toString('utf8').split('\n');
    // The replaced line is written as version 2 (the answer spliced in as msg); the others stay as they were.
    expect(lines[0]).toBe(
      entryLine(1, { dir: 'c2s', kind: 'request', method: 'tools/call', tool: 'small', id: 2 }, smallCall)
        .trimEnd()
        .replace(/"t":"[^"]*"/, lines[0]!.match(/"t":"[^"]*"/)![0]),
    );
    expect(JSON.parse(lines[1]!)).toMatchObject({ v: 2, seq: 2, kind: 'response', msg: { jsonrpc: '2.0', id: 2, result: smallCall.params } });
    expect(statSync(path).size - before).toBe(Buffer.byteLength(lines[1]!) - Buffer.byteLength(stale.trimEnd()));
    const [start] = hugeLine.split('HUGE');
    expect(lines[2]!.slice(0, start!.length)).toBe(start);
    expect(lines[2]!.slice(start!.length)).toMatch(/^x+$/);
  });
});
