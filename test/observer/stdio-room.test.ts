// The room the observer has to fall behind in: the bytes of small frames get 8 MiB of it at most,
// a frame that has grown large the whole of it (twice the parse limit and 4 MiB). Handed over in one
// synchronous run, before the observer thread can acknowledge anything.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// The observer runs on a worker thread loaded from the build, so this test uses the build too.
import { startStdioObserver } from '../../dist/observer/stdio/stdio-handle.js';
import { readEntries, tempDir } from '../helpers/spy.js';

const MiB = 1024 * 1024;
const line = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"p":"${'x'.repeat(200)}"}}\n`;
/** 16 MiB of small frames. */
const small = Buffer.from(Array.from({ length: 64 * 1024 }, (_, index) => line(index + 1)).join(''));
const head = Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"text":"');
const large = Buffer.concat([head, Buffer.alloc(20 * MiB, 'y'), Buffer.from('"}}\n')]);

/** An observer recording to a fresh file; `hand` gives it chunks, all at once; then the record. */
async function observed(hand: (chunk: (stream: 'c2s' | 's2c', bytes: Buffer) => void, behind: () => number) => void) {
  const { dir, remove } = tempDir();
  const record = join(dir, 'r.jsonl');
  const observer = startStdioObserver({ session: 's', recordPath: record, live: false, color: false, maxFrame: 32 * MiB }, { warn: () => {} });
  hand(
    (stream, bytes) => {
      for (let at = 0; at < bytes.length; at += 64 * 1024) observer.chunk(stream, bytes.subarray(at, at + 64 * 1024));
    },
    () => observer.behind,
  );
  observer.end('c2s');
  observer.end('s2c');
  await observer.finish();
  const entries = readEntries(record);
  remove();
  return entries;
}

describe("the stdio observer's room", () => {
  it('holds about 8 MiB of small frames; the rest is a gap', async () => {
    let behind = 0;
    const entries = await observed((chunk, behindNow) => {
      chunk('c2s', small);
      behind = behindNow();
    });
    expect(behind).toBeGreaterThan(7 * MiB);
    expect(behind).toBeLessThanOrEqual(8 * MiB);
    const gaps = entries.filter((entry) => entry.kind === 'gap');
    expect(gaps.map((entry) => entry.stream)).toEqual(['c2s']);
    // Every byte is in a frame (and its newline) or counted in the gap.
    const recorded = entries.filter((entry) => entry.kind === 'request');
    expect(recorded.length).toBeGreaterThan(30_000);
    expect(recorded.reduce((sum, entry) => sum + entry.bytes! + 1, 0) + gaps[0]!.lost!).toBe(small.length);
  }, 60_000);

  it('holds a frame that has grown large well beyond that, whole', async () => {
    let behind = 0;
    const entries = await observed((chunk, behindNow) => {
      chunk('s2c', large);
      behind = behindNow();
    });
    expect(behind).toBe(large.length);
    const answer = entries.find((entry) => entry.dir === 's2c');
    expect(answer).toMatchObject({ kind: 'response', id: 1, bytes: large.length - 1 });
    expect(answer!.truncated).toBeUndefined();
    expect(entries.filter((entry) => entry.kind === 'gap')).toEqual([]);
  }, 60_000);
});
