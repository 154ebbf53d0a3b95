import { describe, expect, it } from 'vitest';
import { choosePrune, type PruneCandidate } from '../../src/review/session-prune.js';

/** Sessions of two servers, an hour apart: a1 oldest; b2 still being written. */
const at = (hour: number) => new Date(Date.UTC(2026, 11, 1, hour));
const candidates: PruneCandidate[] = [
  { file: 'a1', key: 'cursor--a', started: at(1), bytes: 100, live: false },
  { file: 'b1', key: 'cursor--b', started: at(2), bytes: 100, live: false },
  { file: 'a2', key: 'cursor--a', started: at(3), bytes: 100, live: false },
  { file: 'a3', key: 'cursor--a', started: at(4), bytes: 300, live: false },
  { file: 'b2', key: 'cursor--b', started: at(5), bytes: 100, live: true },
];

describe('choosePrune', () => {
  it.each([
    [{ keep: 1 }, ['a2', 'b1', 'a1']],
    [{ keep: 2 }, ['a1']],
    [{ keep: 5 }, []],
    // Newest first: b2 (live, 100) and a3 (300) fit 450; a2 would not, so it and all older go.
    [{ maxBytes: 450 }, ['a2', 'b1', 'a1']],
    [{ maxBytes: 0 }, ['a3', 'a2', 'b1', 'a1']],
    [{ keep: 2, maxBytes: 500 }, ['b1', 'a1']],
  ])('%j removes %j, never the live one', (rule, removed) => {
    expect(choosePrune(candidates, rule)).toEqual(removed);
  });

  it('keeps a live session even beyond the count', () => {
    expect(choosePrune([...candidates, { file: 'b0', key: 'cursor--b', started: at(0), bytes: 1, live: true }], { keep: 1 })).toEqual(['a2', 'b1', 'a1']);
  });
});
