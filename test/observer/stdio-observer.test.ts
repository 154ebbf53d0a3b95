import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// The observer runs on a worker thread loaded from the build, so this test uses the build too.
import { startStdioObserver } from '../../dist/observer/stdio/stdio-handle.js';
import { readEntries, tempDir } from '../helpers/spy.js';

const line = (id: number) => Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`);

describe('the observer thread', () => {
  it('records what it is given, in order, with events', async () => {
    const dir = tempDir().dir;
    const record = join(dir, 'r.jsonl');
    const observer = startStdioObserver({ session: 's1', recordPath: record, live: false, color: false, maxFrame: 1024 }, { warn: () => {} });
    observer.event('spawn', { transport: 'stdio', command: ['x'] });
    observer.chunk('c2s', line(1).subarray(0, 10));
    observer.chunk('c2s', Buffer.concat([line(1).subarray(10), line(2)]));
    observer.chunk('stderr', Buffer.from('warning: x\n'));
    observer.end('c2s');
    observer.event('exit', { code: 0, signal: null });
    await observer.finish();
    const entries = readEntries(record);
    expect(entries.map((entry) => [entry.seq, entry.kind, entry.id])).toEqual([
      [1, 'spawn', undefined],
      [2, 'request', 1],
      [3, 'request', 2],
      [4, 'stderr', undefined],
      [5, 'exit', undefined],
      [6, 'unanswered', undefined],
    ]);
    expect(entries.every((entry) => entry.session === 's1')).toBe(true);
  });

  it('keeps stderr lines as text when they are UTF-8 (a real U+FFFD included), base64 when not', async () => {
    const dir = tempDir().dir;
    const record = join(dir, 'r.jsonl');
    const observer = startStdioObserver({ session: 's4', recordPath: record, live: false, color: false, maxFrame: 1024 }, { warn: () => {} });
    observer.chunk('stderr', Buffer.from('replaced \ufffd here\n'));
    observer.chunk('stderr', Buffer.from([0x62, 0x61, 0x64, 0xff, 0x0a]));
    await observer.finish();
    const [text, bytes] = readEntries(record);
    expect(text).toMatchObject({ kind: 'stderr', raw: 'replaced \ufffd here' });
    expect(bytes).toMatchObject({ kind: 'stderr', rawBase64: Buffer.from([0x62, 0x61, 0x64, 0xff]).toString('base64') });
    expect(bytes!.raw).toBeUndefined();
  });

  it('counts what it could not take as a gap, and does not glue pieces of lines together', async () => {
    const dir = tempDir().dir;
    const record = join(dir, 'r.jsonl');
    const observer = startStdioObserver({ session: 's2', recordPath: record, live: false, color: false, maxFrame: 1024 }, { warn: () => {}, maxBehind: 64 });
    observer.chunk('c2s', line(1));
    // Too much at once for a 64-byte allowance: dropped, counted.
    observer.chunk('c2s', Buffer.concat([line(2), line(3), line(4)]).subarray(0, 100));
    while (observer.behind > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    // The rest of a line whose start was lost, then a whole line.
    observer.chunk('c2s', Buffer.concat([Buffer.from('"method":"ping"}\n'), line(5)]));
    await observer.finish();
    const entries = readEntries(record);
    expect(entries.map((entry) => entry.kind)).toEqual(['request', 'gap', 'request', 'unanswered']);
    // Every byte not recorded is counted: the 100 refused, and the 17 of the broken line's rest.
    expect(entries[1]).toMatchObject({ lost: 117, stream: 'c2s' });
    expect(entries[2]).toMatchObject({ id: 5 });
  });

  it('passes only the length of a line beyond the parse limit, and still records its true size', async () => {
    const dir = tempDir().dir;
    const record = join(dir, 'r.jsonl');
    const observer = startStdioObserver({ session: 's3', recordPath: record, live: false, color: false, maxFrame: 64 }, { warn: () => {}, maxBehind: 200 });
    for (let i = 0; i < 100; i++) observer.chunk('s2c', Buffer.alloc(50, 0x61));
    observer.chunk('s2c', Buffer.from('a\r\n'));
    observer.chunk('s2c', line(9));
    await observer.finish();
    const [big, next] = readEntries(record);
    expect(big).toMatchObject({ kind: 'invalid', bytes: 5001, truncated: true, eol: '\r\n', raw: 'a'.repeat(64) });
    // Only the first two chunks were copied to the observer; the other 98 were counted.
    expect(readEntries(record).some((entry) => entry.kind === 'gap')).toBe(false);
    expect(next).toMatchObject({ kind: 'request', id: 9 });
  });
});
