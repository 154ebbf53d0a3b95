import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendLastWords } from '../../src/sinks/last-words.js';
import { unrecordedTail } from '../../src/observer/channel/unrecorded-tail.js';
import { readRecord } from '../helpers/faults.js';
import { tempDir } from '../helpers/spy.js';

const streams = ['c2s', 's2c', 'stderr'];
const spawn = { number: 1, forwarded: [0, 0, 0], t: 1_000, kind: 'spawn' as const, fields: { pid: 7 } };
const exit = { number: 90, forwarded: [300, 200, 0], t: 2_000, kind: 'exit' as const, fields: { code: 0, signal: null } };

describe('what a record lacks when its observer did not finish', () => {
  it('is nothing more than gaps for the bytes it does not hold, when it holds every event but the exit', () => {
    const tail = unrecordedTail([spawn, exit], [300, 200, 0], { lastSeq: 40, handled: 50, recorded: [120, 200, 0] }, streams, 3_000);
    expect(tail).toEqual([
      { kind: 'gap', t: 2_000, reason: expect.stringContaining('--drain-timeout'), stream: 'c2s', lost: 180 },
      { kind: 'exit', t: 2_000, code: 0, signal: null },
    ]);
  });

  it('is the spawn too when the observer wrote nothing, and bytes forwarded after the last event count as well', () => {
    const tail = unrecordedTail([spawn, exit], [300, 250, 9], { lastSeq: 0, handled: 0, recorded: [0, 0, 0] }, streams, 3_000);
    expect(tail.map((entry) => [entry.kind, entry.stream, entry.lost])).toEqual([
      ['spawn', undefined, undefined],
      ['gap', 'c2s', 300],
      ['gap', 's2c', 200],
      ['exit', undefined, undefined],
      ['gap', 's2c', 50],
      ['gap', 'stderr', 9],
    ]);
  });

  it('on HTTP is a gap for the body bytes of each side, requests c2s and responses s2c', () => {
    const tail = unrecordedTail([], [5_000, 900], { lastSeq: 3, handled: 4, recorded: [1_000, 0] }, ['c2s', 's2c'], 3_000);
    expect(tail).toEqual([
      { kind: 'gap', t: 3_000, reason: expect.any(String), stream: 'c2s', lost: 4_000 },
      { kind: 'gap', t: 3_000, reason: expect.any(String), stream: 's2c', lost: 900 },
    ]);
  });

  it('names what cut the finishing short: the drain timeout, or a stop signal', () => {
    const reasons = (cause?: string) => unrecordedTail([], [10], { lastSeq: 0, handled: 0, recorded: [0] }, ['c2s'], 1, cause).map((gap) => gap.reason);
    expect(reasons()).toEqual([expect.stringContaining('(--drain-timeout)')]);
    expect(reasons('SIGTERM')).toEqual([expect.stringContaining('(SIGTERM cut finishing short)')]);
  });

  it('says the observer stopped, and why, when its thread ended before it was told to finish', () => {
    const tail = unrecordedTail([], [10], { lastSeq: 0, handled: 0, recorded: [0] }, ['c2s'], 1, { stopped: 'its thread exited with code 1' });
    expect(tail.map((gap) => gap.reason)).toEqual(['the observer stopped (its thread exited with code 1); these bytes were forwarded but not recorded']);
  });
});

describe('the last words of a record whose observer did not finish', () => {
  it('follow the last entry written, numbered on, in the same session', () => {
    const { file } = tempDir();
    const record = file('wire.jsonl', '{"v":2,"seq":7,"t":"2026-01-01T00:00:00.000Z","session":"s","kind":"request","dir":"c2s","bytes":2,"msg":{}}\n');
    const tail = unrecordedTail([exit], [300, 200, 0], { lastSeq: 7, handled: 10, recorded: [100, 200, 0] }, streams, 3_000);
    appendLastWords(record, { named: false, session: 's', lastSeq: 7, tail });
    const entries = readRecord(record);
    expect(entries.map((entry) => [entry.seq, entry.kind, entry.session])).toEqual([
      [7, 'request', 's'],
      [8, 'gap', 's'],
      [9, 'exit', 's'],
    ]);
    expect(entries[1]).toMatchObject({ stream: 'c2s', lost: 200, t: new Date(2_000).toISOString() });
    expect(entries[2]).toMatchObject({ code: 0, signal: null });
  });

  it('never follow a planted link for a default record', () => {
    const { dir, file } = tempDir();
    const target = file('elsewhere.txt', 'keep\n');
    const link = join(dir, 'wire.jsonl');
    symlinkSync(target, link);
    appendLastWords(link, { named: false, session: 's', lastSeq: 0, tail: [{ kind: 'exit', t: 1, code: null, signal: null }] });
    expect(readFileSync(target, 'utf8')).toBe('keep\n');
  });
});
