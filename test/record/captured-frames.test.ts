import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRecording } from '../../src/record/open-recording.js';
import { capturedLine, capturedSpanLine, splicedLine } from '../../src/record/record-line.js';
import { rawSplicedLine } from '../../src/record/raw-bytes.js';
import { parseRecordLine } from '../../src/record/reader.js';
import { createRecorder } from '../../src/observer/recorder.js';
import type { Direction } from '../../src/wire/classify/kinds.js';
import type { Sink } from '../../src/sinks/sink.js';
import { runMain } from '../helpers/in-process.js';
import { readEntries } from '../helpers/spy.js';
import { framesIn } from '../../src/wire/framing/line-framer.js';
import { observeStdio } from '../../src/observer/stdio/observe-stdio.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-spy-captured-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rpc = (body: object) => JSON.stringify({ jsonrpc: '2.0', ...body });
const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object' } });

/** One stdio session's traffic, line by line: most of what the pipeline annotates. */
const traffic: [Direction, string | Buffer][] = [
  ['c2s', rpc({ id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'c', version: '1' } } })],
  ['s2c', rpc({ id: 1, result: { protocolVersion: '2025-03-26', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 's', version: '1' } } })],
  ['c2s', rpc({ method: 'notifications/initialized' })],
  ['c2s', rpc({ id: 2, method: 'tools/list' })],
  ['s2c', rpc({ id: 2, result: { tools: [tool('search', 'finds'), tool('fetch', 'gets')] } })],
  ['c2s', rpc({ id: 3, method: 'tools/call', params: { name: 'search', arguments: { q: 'mcp' } } })],
  ['s2c', 'starting search...'],
  ['s2c', rpc({ id: 3, result: { content: [{ type: 'text', text: 'found' }] } })],
  ['c2s', rpc({ id: 4, method: 'tools/call', params: { name: 'fetch', arguments: {} } })],
  ['s2c', rpc({ id: 4, result: { content: [{ type: 'text', text: 'no' }], isError: true } })],
  ['c2s', `[${rpc({ id: 5, method: 'ping' })},${rpc({ id: 6, method: 'resources/list' })}]`],
  ['s2c', `[${rpc({ id: 5, result: {} })},${rpc({ id: 6, error: { code: -32601, message: 'Method not found' } })}]`],
  ['s2c', rpc({ method: 'notifications/tools/list_changed' })],
  ['c2s', rpc({ id: 7, method: 'tools/list' })],
  ['s2c', rpc({ id: 7, result: { tools: [tool('search', 'finds everything now'), tool('fetch', 'gets')] } })],
  ['s2c', rpc({ id: 99, result: {} })],
  ['s2c', Buffer.from([0xff, 0xfe, 0x7b, 0x7d])],
  ['c2s', rpc({ id: 3, method: 'ping' })],
  ['c2s', rpc({ id: 8, method: 'tools/call', params: { name: 'search', arguments: { q: 'never answered', password: 'hunter2' } } })],
  ['c2s', `[${rpc({ id: 9, method: 'ping' })},${rpc({ id: 10, method: 'tools/call', params: { name: 'fetch', arguments: { apiKey: 'sk-1' } } })}]`],
  ['s2c', rpc({ id: 's1', method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } })],
];

const start = Date.UTC(2026, 6, 28, 10, 0, 0);
const at = (index: number) => start + 10 + index * 7;

/** A sink that writes record lines as the record file does: a frame's JSON spliced in last, a cut frame's kept bytes as `raw`. */
function lineSink(lines: string[]) {
  return (): Sink => ({
    entry: (entry, _message, json, cut) => {
      if (json !== undefined) lines.push(splicedLine(entry, json).join(''));
      else if (cut !== undefined) lines.push(Buffer.concat(rawSplicedLine(entry, cut).map((piece) => Buffer.from(piece))).toString());
      else lines.push(`${JSON.stringify(entry)}\n`);
    },
    captured: (line) => lines.push(typeof line === 'string' ? line : line.map(String).join('')),
    backlog: () => 0,
    caughtUp: () => Promise.resolve(),
    flush: () => Promise.resolve(),
    closeNow: () => {},
  });
}

/**
 * The session as the spy writes it, through its recorder (secret names masked): the first
 * `analysed` frames analysed, the rest captured only, as when the observer fell behind there.
 */
function record(name: string, analysed: number): string {
  return session(name, (recorder) =>
    traffic.forEach(([direction, bytes], index) => {
      const frame = { bytes: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes) };
      if (index < analysed) recorder.frame('k3v', direction, frame, at(index));
      else recorder.capture('k3v', direction, frame, at(index));
    }),
  );
}

/** A session `k3v` written to `name`.jsonl through a recorder (secret names masked): its spawn, what `feed` gives it, the client closing, the exit. */
function session(name: string, feed: (recorder: ReturnType<typeof createRecorder>) => void): string {
  const lines: string[] = [];
  const recorder = createRecorder({ sinks: [lineSink(lines)], warn: () => {}, transport: 'stdio', session: 'k3v', redactNames: true });
  recorder.event('k3v', 'spawn', { transport: 'stdio', command: ['srv'], pid: 7 }, start);
  feed(recorder);
  const end = at(traffic.length);
  recorder.clientClosed('k3v', end);
  recorder.event('k3v', 'exit', { code: 0, signal: null }, end + 1);
  recorder.endSession('k3v', end + 1);
  const path = join(dir, `${name}.jsonl`);
  writeFileSync(path, lines.join(''));
  return path;
}

const full = record('full', traffic.length);

async function entriesOf(path: string) {
  const entries = [];
  for await (const { entry } of readRecording(path)) entries.push(entry);
  return entries;
}

/**
 * What a command prints for a record, its file's name taken out, and the file's line numbers too:
 * they point into each file (a captured batch is one line, a note the reader adds has none), while
 * the entries they point at are the same, by seq.
 */
async function output(argv: string[], path: string) {
  const result = await runMain([...argv, path]);
  const plain = (text: string) =>
    text
      .replaceAll(path, 'RECORD')
      .replace(/RECORD:\d+:/g, 'RECORD:N:')
      .replace(/"lineNo": ?\d+/g, '"lineNo":N');
  return { code: result.code, text: plain(result.text), stderr: plain(result.stderr) };
}

describe('a record holding captured-only frames', () => {
  it('holds to the published schema, each captured frame with its bytes as they crossed the wire', () => {
    const path = record('schema', 5);
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    const captured = lines.filter((line) => line.includes('"kind":"captured"') && !line.includes('"closed":true'));
    expect(captured).toHaveLength(traffic.length - 5);
    // Where the client closed its input: marked, for the readers to say which server requests it left.
    expect(lines.filter((line) => line.includes('"closed":true'))).toHaveLength(1);
    // Masked as an analysed frame is: the secret never reaches the file.
    expect(lines.join('\n')).not.toContain('hunter2');
    expect(JSON.parse(captured.at(-3)!)).toMatchObject({
      redacted: ["$['params']['arguments']['password']"],
      msg: { params: { arguments: { password: '[redacted]' } } },
    });
    // The spy, whose pairing missed the captured frames, leaves `unanswered` to the readers.
    expect(lines.some((line) => line.includes('"kind":"unanswered"'))).toBe(false);
    expect(readEntries(path).length).toBeGreaterThan(lines.length);
    // JSON spliced verbatim, last; other text as raw; bytes that are not UTF-8 as base64.
    expect(captured[0]).toBe(
      `{"v":2,"seq":7,"t":"${new Date(at(5)).toISOString()}","session":"k3v","kind":"captured","dir":"c2s","bytes":${Buffer.byteLength(traffic[5]![1])},"msg":${traffic[5]![1] as string}}\n`.trimEnd(),
    );
    expect(JSON.parse(captured[1]!)).toMatchObject({ kind: 'captured', dir: 's2c', raw: 'starting search...' });
    expect(JSON.parse(captured.at(-5)!)).toMatchObject({ kind: 'captured', rawBase64: Buffer.from([0xff, 0xfe, 0x7b, 0x7d]).toString('base64') });
  });

  it.each([0, 1, 4, 9, 12, 15, 19, 21])('reads as the same session fully analysed when capture takes over after %i frames', async (analysed) => {
    const path = record(`from-${analysed}`, analysed);
    const expected = await entriesOf(full);
    // The fully analysed session has all the reader must make of captured frames: notes, masks, batches, what was left.
    expect(expected.map((entry) => entry.kind)).toEqual(expect.arrayContaining(['note', 'unanswered', 'invalid', 'tool-error', 'protocol-error']));
    expect(expected.filter((entry) => entry.kind === 'note').map((entry) => entry.notes)).toEqual([['tool-changed-mid-session'], ['client-closed']]);
    expect(await entriesOf(path)).toEqual(expected);
  });

  it.each([
    ['view', ['view']],
    ['view --format json', ['view', '--format', 'json']],
    ['stats', ['stats']],
    ['stats --format json', ['stats', '--format', 'json']],
    ['check', ['check']],
    ['check --format json', ['check', '--format', 'json']],
  ])('gives the same %s output as the session fully analysed', async (_name, argv) => {
    const path = record(`cmd-${argv.join('-')}`, 4);
    const expected = await output(argv, full);
    expect(expected.text.length).toBeGreaterThan(0);
    expect(await output(argv, path)).toEqual(expected);
  });

  it('is analysed alone when a single line is read again', () => {
    const line = capturedLine({ v: 2, seq: 3, t: new Date(start).toISOString(), session: 'k3v' }, 'c2s', {
      bytes: Buffer.from(rpc({ id: 1, method: 'ping' })),
    });
    const item = parseRecordLine(line.trimEnd(), 1);
    expect(item.ok && item.entry).toMatchObject({ seq: 3, kind: 'request', method: 'ping', id: 1, dir: 'c2s', msg: { id: 1, method: 'ping' } });
  });
});

/**
 * The session with its frames from `analysed` on captured in spans, as the observer captures the
 * whole lines of a chunk: runs of frames of one direction, at most `perSpan`, each run at its first
 * frame's time (with an empty line and a lone CRLF inside, which are no frames). `times` gives each
 * frame's time, for the fully analysed session to compare with.
 */
function spans(analysed: number, perSpan: number) {
  const times = traffic.map((_, index) => at(index));
  const runs: number[][] = [];
  traffic.forEach(([direction], index) => {
    if (index < analysed) return;
    const run = runs.at(-1);
    if (run && run.length < perSpan && traffic[run[0]!]![0] === direction && run.at(-1) === index - 1) run.push(index);
    else runs.push([index]);
  });
  for (const run of runs) for (const index of run) times[index] = at(run[0]!);
  return { times, runs };
}

function recordTimed(name: string, times: number[], runs: number[][] = [], analysed = traffic.length): string {
  return session(name, (recorder) =>
    traffic.forEach(([direction, bytes], index) => {
      if (index < analysed) recorder.frame('k3v', direction, { bytes: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes) }, times[index]);
      const run = runs.find((indexes) => indexes[0] === index);
      if (!run) return;
      const parts = run.flatMap((member, place) => [Buffer.from(traffic[member]![1]), Buffer.from(place === 0 ? '\n\n' : place === 1 ? '\n\r\n' : '\n')]);
      const span = Buffer.concat(parts);
      recorder.captureSpan('k3v', direction, span, framesIn(span), times[index]);
    }),
  );
}

describe('a record holding spans of captured lines', () => {
  it('writes a span as one line of its exact bytes, numbered by its first frame, where nothing in it is to be masked', () => {
    const { times, runs } = spans(0, 50);
    const path = recordTimed('span-lines', times, runs, 0);
    const lines = readFileSync(path, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const spanLines = lines.filter((line) => line.frames !== undefined);
    expect(spanLines.length).toBeGreaterThan(3);
    // Each frame of a span has its seq: the entry after a span goes on from its last frame.
    for (const line of spanLines) {
      const next = lines[lines.indexOf(line) + 1];
      if (next && !next.closed) expect(next.seq).toBe(line.seq + line.frames);
      const text = line.raw ?? Buffer.from(line.rawBase64, 'base64').toString('latin1');
      expect(line.bytes).toBe(Buffer.byteLength(text, line.raw === undefined ? 'latin1' : 'utf8'));
    }
    expect(spanLines.some((line) => line.rawBase64 !== undefined)).toBe(true);
    // The secrets: the spans that name one were captured frame by frame, and masked.
    expect(readFileSync(path, 'utf8')).not.toContain('hunter2');
    expect(readFileSync(path, 'utf8')).not.toContain('sk-1');
    expect(lines.filter((line) => line.kind === 'captured' && line.frames === undefined && line.redacted).length).toBe(2);
  });

  it.each([
    [0, 2],
    [0, 50],
    [3, 3],
    [9, 4],
    [15, 50],
  ])('reads as the same session fully analysed when spans take over after %i frames, %i frames a span at most', async (analysed, perSpan) => {
    const { times, runs } = spans(analysed, perSpan);
    const expected = await entriesOf(recordTimed(`span-full-${analysed}-${perSpan}`, times));
    expect(expected.filter((entry) => entry.kind === 'note').map((entry) => entry.notes)).toEqual([['tool-changed-mid-session'], ['client-closed']]);
    expect(await entriesOf(recordTimed(`span-${analysed}-${perSpan}`, times, runs, analysed))).toEqual(expected);
  });

  it.each([
    ['view', ['view']],
    ['stats --format json', ['stats', '--format', 'json']],
    ['check', ['check']],
  ])('gives the same %s output as the session fully analysed', async (_name, argv) => {
    const { times, runs } = spans(2, 50);
    const expected = await output(argv, recordTimed(`span-cmd-full-${argv.join('-')}`, times));
    expect(expected.text.length).toBeGreaterThan(0);
    expect(await output(argv, recordTimed(`span-cmd-${argv.join('-')}`, times, runs, 2))).toEqual(expected);
  });
});

const KiB = 1024;
const call = (id: number, args: object) => rpc({ id, method: 'tools/call', params: { name: 'echo', arguments: args } });
const answer = (id: number, text: string) => rpc({ id, result: { content: [{ type: 'text', text }] } });

/** A session of frames far over 256 KiB (under a 2 MiB parse limit but one), and small ones between them. */
const largeTraffic: [Direction, string | Buffer][] = [
  traffic[0]!,
  traffic[1]!,
  traffic[2]!,
  ['c2s', call(2, { text: 'x'.repeat(300 * KiB) })],
  ['s2c', answer(2, `${'é'.repeat(200 * KiB)}${'y'.repeat(600 * KiB)}🙂`)],
  // A secret's name: its span is captured frame by frame, masked.
  ['c2s', call(3, { text: 'z'.repeat(600 * KiB), password: 'hunter2' })],
  ['s2c', answer(3, 'ok')],
  // Past the parse limit: cut, so never in a span.
  ['c2s', call(4, { text: 'w'.repeat(2600 * KiB) })],
  ['s2c', answer(4, 'cut')],
  // A frame of 400 KiB and a small one after it: the chunk that ends the one holds the other.
  ['c2s', call(5, { text: 'v'.repeat(400 * KiB) })],
  ['c2s', rpc({ id: 6, method: 'ping' })],
  ['s2c', answer(5, 'v'.repeat(1024 * KiB))],
  ['s2c', rpc({ id: 6, result: {} })],
];

/**
 * `largeTraffic` through the stdio observer as the forwarding side hands it over: each run of one
 * direction's lines cut into chunks of 64 KiB, at the time of the run's first frame; `capture` as
 * --capture says (`never`: every frame analysed).
 */
function observed(name: string, capture: 'always' | 'never'): string {
  return session(name, (recorder) => {
    const observer = observeStdio({ session: 'k3v', live: false, color: false, maxFrame: 2048 * KiB, capture, redactNames: true }, recorder);
    const runs: { dir: Direction; first: number; lines: Buffer[] }[] = [];
    largeTraffic.forEach(([direction, text], index) => {
      const line = Buffer.concat([Buffer.from(text), Buffer.from('\n')]);
      if (runs.at(-1)?.dir === direction) runs.at(-1)!.lines.push(line);
      else runs.push({ dir: direction, first: index, lines: [line] });
    });
    for (const run of runs) {
      const bytes = Buffer.concat(run.lines);
      for (let from = 0; from < bytes.length; from += 64 * KiB) {
        const data = bytes.subarray(from, from + 64 * KiB);
        observer.handle(
          { type: 'chunk', stream: run.dir, t: at(run.first), data },
          () => false,
          () => false,
        );
      }
    }
  });
}

describe('a record holding spans of large frames', () => {
  const always = observed('large-always', 'always');
  const never = observed('large-never', 'never');

  it('captures frames over 256 KiB in spans, and captures alone the frame with a secret and the one past the parse limit', () => {
    const lines = readFileSync(always, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const spanned = lines.filter((line) => line.frames !== undefined);
    // The 300 KiB request, the answer of a MiB, then the 400 KiB request and the MiB answer, each with the small frame after it.
    expect(spanned.filter((line) => line.bytes > 256 * KiB).map((line) => [line.dir, line.frames])).toEqual([
      ['c2s', 1],
      ['s2c', 1],
      ['c2s', 2],
      ['s2c', 2],
    ]);
    for (const line of spanned) expect(Buffer.from(line.rawBase64, 'base64').length).toBe(line.bytes);
    const alone = lines.filter((line) => line.kind === 'captured' && line.frames === undefined && !line.closed);
    expect(alone.find((line) => line.redacted)).toMatchObject({ redacted: ["$['params']['arguments']['password']"], msg: { id: 3 } });
    expect(alone.find((line) => line.truncated)).toMatchObject({ truncated: true, bytes: Buffer.byteLength(largeTraffic[7]![1]) });
    expect(readFileSync(always, 'utf8')).not.toContain('hunter2');
  });

  it('reads as the session fully analysed', async () => {
    expect(readFileSync(never, 'utf8')).not.toContain('"kind":"captured"');
    expect(await entriesOf(always)).toEqual(await entriesOf(never));
  });

  it.each([
    ['view --format jsonl', ['view', '--format', 'jsonl']],
    ['stats --format json', ['stats', '--format', 'json']],
    ['check', ['check']],
  ])('gives the same %s output as the session fully analysed', async (_name, argv) => {
    const expected = await output(argv, never);
    expect(expected.text.length).toBeGreaterThan(0);
    expect(await output(argv, always)).toEqual(expected);
  });
});

describe('a span of large frames, piece by piece', () => {
  it('is written in base64 exactly as the whole span encodes, wherever its pieces end', () => {
    const piece = 48 * KiB;
    const lengths = [1, 2, 3, 4, piece - 1, piece, piece + 1, piece + 2, 2 * piece - 2, 2 * piece, 2 * piece + 1, 5 * piece + 2];
    for (const length of lengths) {
      const span = Buffer.alloc(length);
      for (let index = 0; index < length; index++) span[index] = (index * 131 + 7) & 0xff;
      const [line] = capturedSpanLine({ v: 2, seq: 3, t: new Date(start).toISOString(), session: 'k3v' }, 's2c', span, 1);
      const text = line.toString('latin1');
      expect(text.endsWith('"}\n')).toBe(true);
      const entry = JSON.parse(text);
      expect([length, entry.bytes, entry.rawBase64]).toEqual([length, length, span.toString('base64')]);
    }
  });

  it("is captured frame by frame, masked, when a secret's name in it is cut between two of the pieces it is looked through in", () => {
    // "Authorization", the longest of the names looked for, with 1 to 12 of its letters before the
    // end of the first 64 KiB of the span; then just before and across the second.
    const cuts = [...Array.from({ length: 12 }, (_, index) => [1, index + 1]), [2, 13], [2, 1]];
    const frameOf = (index: number, pad: string) => Buffer.from(`${call(index + 1, { pad, Authorization: `Bearer s3cr3t-${index}` })}\n`);
    const frames = cuts.map(([piece, before], index) => {
      const at = piece! * 64 * KiB - before!;
      return frameOf(index, 'p'.repeat(at - frameOf(index, '').indexOf('Authorization')));
    });
    expect(frames.map((frame) => frame.indexOf('Authorization'))).toEqual(cuts.map(([piece, before]) => piece! * 64 * KiB - before!));
    const path = session('cut-names', (recorder) => {
      for (const [index, frame] of frames.entries()) recorder.captureSpan('k3v', 'c2s', frame, 1, at(index));
    });
    const written = readFileSync(path, 'utf8');
    expect(written).not.toContain('s3cr3t');
    const captured = written
      .split('\n')
      .filter((line) => line.includes('"kind":"captured"') && !line.includes('"closed":true'))
      .map((line) => JSON.parse(line));
    expect(captured).toHaveLength(frames.length);
    for (const entry of captured) expect(entry).toMatchObject({ redacted: ["$['params']['arguments']['Authorization']"] });
  });
});
