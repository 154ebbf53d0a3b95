import { describe, expect, it } from 'vitest';
import { IndexList } from '../../src/ui/index-list.js';

describe('the list of rows shown', () => {
  it('keeps its indexes in order across its blocks, and finds the first at or after one', () => {
    const list = new IndexList();
    const count = 40_000;
    for (let at = 0; at < count; at++) list.push(at * 3);
    expect(list.length).toBe(count);
    expect([list.at(0), list.at(1023), list.at(1024), list.at(16_383), list.at(16_384), list.at(count - 1)]).toEqual([
      0,
      3069,
      3072,
      49_149,
      49_152,
      (count - 1) * 3,
    ]);
    expect([list.at(-1), list.at(count)]).toEqual([undefined, undefined]);
    expect([list.firstFrom(0), list.firstFrom(49_150), list.firstFrom(49_152), list.firstFrom(count * 3)]).toEqual([0, 16_384, 16_384, -1]);
    expect(list.toArray()).toEqual([...list]);
    expect(list.toArray().every((index, at) => index === at * 3)).toBe(true);
  });
});
