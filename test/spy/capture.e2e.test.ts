import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountedBytes, readRecord } from '../helpers/faults.js';
import { cpuHogs } from '../helpers/hogs.js';
import { bin, fixture, node, runBin, runClient, tempDir, type TestEntry } from '../helpers/spy.js';

// The capture tier: when the recorder is pressed for time (far behind the traffic, or finishing out
// of time), the stdio spy records whole lines in spans, their bytes verbatim, and leaves their
// analysis to whoever reads the record; readers see the entries a fully analysed record holds.

// A MiB each way of 147-byte notifications: far more than the observer can analyse as fast as cat echoes them.
const note = `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x'.repeat(60) } })}\n`;
const lineCount = Math.ceil((1024 * 1024) / note.length);
const tinyLines = Buffer.from(note.repeat(lineCount));

/** `input` through a spy with `args` recording `cat`, which echoes it: the record's lines and spans. */
async function flood(args: string[], input = tinyLines) {
  const dir = tempDir().dir;
  const result = await runBin(['-q', '--record', 'w.jsonl', ...args, '--', 'cat'], { cwd: dir, input });
  expect(result.code).toBe(0);
  expect(result.stdout.equals(input)).toBe(true);
  const path = join(dir, 'w.jsonl');
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  return { dir, path, lines, spans: lines.filter((line) => line.includes('"kind":"captured"') && line.includes('"frames":')) };
}

/** What an entry is, its time, latency, process and directory left out (two runs of one session differ there only). */
const shape = (entry: TestEntry) => {
  const { t: _t, latencyMs: _latency, session: _session, pid: _pid, cwd: _cwd, ...rest } = entry;
  return rest;
};

/** A command's output for a record, what differs between two runs of one session taken out. */
const plain = (text: string, path: string) =>
  text
    .replaceAll(path, 'RECORD')
    .replace(/"(t|session|latencyMs|pid|cwd)": ?("[^"]*"|[\d.]+),/g, '')
    .replace(/session [a-z0-9]+-[0-9a-f]+/g, 'session S')
    // Line numbers point into each file: frames read at once share a span's line.
    .replace(/RECORD:\d+:/g, 'RECORD:N:');

/** A session of the SDK's client with the greet server, through a spy with `flags`. */
const session = (record: string, flags: string[], calls: unknown[], log?: string) =>
  runClient(
    'tools-client.js',
    ['--', node, bin, '--record', record, ...(log ? ['--log', log] : ['--no-log']), '-q', ...flags, '--', node, fixture('servers', 'greet-server.js')],
    {
      CALLS: JSON.stringify(calls),
    },
  );

const hogs = cpuHogs();

describe('the capture tier', () => {
  it('with two CPU hogs beside it, records every frame of a MiB of small frames each way: no gap', async () => {
    await hogs.start();
    const { path, spans } = await flood([]);
    // Far behind from the first chunk: the lines are captured in spans, not cut into a line each.
    expect(spans.length).toBeGreaterThan(0);
    expect(JSON.parse(spans[0]!)).toMatchObject({
      kind: 'captured',
      dir: expect.stringMatching(/^(c2s|s2c)$/),
      frames: expect.any(Number),
      rawBase64: expect.any(String),
    });
    const entries = readRecord(path);
    expect(entries[0]).toMatchObject({ seq: 1, kind: 'spawn' });
    expect(entries.map((entry) => entry.seq)).toEqual(entries.map((_, index) => index + 1));
    expect(entries.filter((entry) => entry.kind === 'gap')).toEqual([]);
    const frames = entries.filter((entry) => entry.dir !== undefined);
    expect(frames).toHaveLength(2 * lineCount);
    expect(new Set(frames.map((entry) => entry.kind))).toEqual(new Set(['notification']));
    expect(accountedBytes(entries, 'c2s')).toBe(tinyLines.length);
    expect(accountedBytes(entries, 's2c')).toBe(tinyLines.length);
    // stats and check count the captured frames as analysed ones.
    const stats = await runBin(['stats', '--format', 'json', path]);
    expect(stats.code).toBe(0);
    expect(stats.text).toContain(`"frames": ${2 * lineCount}`);
  });

  it('with --capture never, writes no captured line', async () => {
    const { spans, lines } = await flood(['--capture', 'never']);
    expect(spans).toEqual([]);
    expect(lines.some((line) => line.includes('"kind":"captured"'))).toBe(false);
  });

  it('with --capture always, a real SDK session reads as the same session analysed: view, check, and the log says where the frames are', async () => {
    const dir = tempDir().dir;
    const calls = [
      ['greet', { name: 'Ada' }],
      ['add', { a: 2, b: 3 }],
      ['greet', {}],
    ];
    const records = { always: join(dir, 'always.jsonl'), never: join(dir, 'never.jsonl') };
    const results = {
      always: await session(records.always, ['--capture', 'always'], calls, join(dir, 'always.log')),
      never: await session(records.never, ['--capture', 'never'], calls),
    };
    expect(results.always).toEqual(results.never);
    const written = readFileSync(records.always, 'utf8').split('\n').filter(Boolean);
    // Every frame captured: no line of the file is an analysed frame.
    expect(written.filter((line) => /"kind":"(request|response|notification|tool-error|protocol-error|invalid)"/.test(line))).toEqual([]);
    expect(written.some((line) => line.includes('"kind":"captured"'))).toBe(true);
    const always = readRecord(records.always);
    const never = readRecord(records.never);
    expect(always.map((entry) => entry.kind)).toContain('tool-error');
    expect(always.map(shape)).toEqual(never.map(shape));
    for (const argv of [['check'], ['view', '--format', 'jsonl', '--kind', 'request,response,tool-error']]) {
      const [one, other] = await Promise.all([runBin([...argv, records.always]), runBin([...argv, records.never])]);
      expect([one.code, plain(one.text, records.always)]).toEqual([other.code, plain(other.text, records.never)]);
    }
    // The log leaves the captured frames out and says where they are.
    expect(readFileSync(join(dir, 'always.log'), 'utf8')).toMatch(/frame\(s\) left out of this log; the record has them all \(mcp-spy view /);
  });

  it('with --capture always, captures frames of a MiB in spans, which read as the frames analysed: view, stats, check', async () => {
    const rpc = (body: object) => JSON.stringify({ jsonrpc: '2.0', ...body });
    // Notifications: cat echoes requests as the server's, and whether those count as unanswered
    // depends on whether the client's EOF came before them, which differs from run to run.
    const frames = [
      rpc({ method: 'notifications/message', params: { level: 'info', data: 'x'.repeat(1024 * 1024) } }),
      rpc({ method: 'notifications/message', params: { level: 'info', data: 'y'.repeat(300 * 1024) } }),
      rpc({ method: 'notifications/message', params: { level: 'debug', data: 'z' } }),
    ];
    const input = Buffer.from(frames.map((frame) => `${frame}\n`).join(''));
    const always = await flood(['--capture', 'always'], input);
    const never = await flood(['--capture', 'never'], input);
    // Every frame of each direction in a span; the largest whole in one.
    const spans = always.spans.map((line) => JSON.parse(line) as { dir: string; frames: number; bytes: number });
    for (const dir of ['c2s', 's2c']) expect(spans.filter((span) => span.dir === dir).reduce((sum, span) => sum + span.frames, 0)).toBe(frames.length);
    expect(Math.max(...spans.map((span) => span.bytes))).toBeGreaterThan(1024 * 1024);
    // Captured alone, none: the line saying where the client closed its input holds no frame.
    expect(always.lines.filter((line) => line.includes('"kind":"captured"') && !line.includes('"frames":') && !line.includes('"closed":true'))).toEqual([]);
    const [captured, analysed] = [readRecord(always.path), readRecord(never.path)];
    expect(captured.map(shape)).toEqual(analysed.map(shape));
    // Each run's session id, wherever an output names it.
    const output = (text: string, path: string, entries: TestEntry[]) => plain(text.replaceAll(entries[0]!.session!, 'S'), path);
    for (const argv of [['view', '--format', 'jsonl'], ['stats', '--format', 'json'], ['check']]) {
      const [one, other] = await Promise.all([runBin([...argv, always.path]), runBin([...argv, never.path])]);
      expect(one.text.length).toBeGreaterThan(0);
      expect([one.code, output(one.text, always.path, captured)]).toEqual([other.code, output(other.text, never.path, analysed)]);
    }
  });

  it('analyses every frame where fault rules mark them, --capture always or not', async () => {
    const dir = tempDir().dir;
    const record = join(dir, 'faulted.jsonl');
    await session(record, ['--capture', 'always', '--fault', 'tools/call tool=add: delay 10ms'], [['add', { a: 1, b: 1 }]]);
    const written = readFileSync(record, 'utf8');
    expect(written).not.toContain('"kind":"captured"');
    expect(written).toContain('"fault":"tools/call tool=add: delay 10ms"');
  });
});
