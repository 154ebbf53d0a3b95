// The correlator's memory stays flat over a long session, and a duplicate of a recent id is still caught.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { classifyMessage } from '../../src/wire/classify/classify.js';
import { createCorrelator, rememberedIds, type Correlator } from '../../src/wire/correlate/correlate.js';
import type { Direction } from '../../src/wire/classify/kinds.js';

let seq = 0;
function send(correlator: Correlator, dir: Direction, body: object) {
  const message = { jsonrpc: '2.0', ...body };
  seq += 1;
  return correlator.observe({ dir, classified: classifyMessage(message), message, seq, timeMs: seq });
}

const pairs = 1_000_000;

/** A session of `pairs` answered client requests, ids 1..pairs, under the revision `initialize` agrees to. */
function longSession(revision: string) {
  const correlator = createCorrelator();
  send(correlator, 'c2s', { id: 'init', method: 'initialize', params: { protocolVersion: revision } });
  send(correlator, 's2c', { id: 'init', result: { protocolVersion: revision } });
  for (let id = 1; id <= pairs; id++) {
    send(correlator, 'c2s', { id, method: 'tools/list', params: { _meta: { progressToken: id } } });
    send(correlator, 's2c', { id, result: { tools: [] } });
  }
  return correlator;
}

const duplicateNote = (correlator: Correlator, id: number) => send(correlator, 'c2s', { id, method: 'ping' }).notes.includes('duplicate-id');

describe('the correlator over a million requests', () => {
  const table = [
    // Ids unique in the whole session: the most recent are remembered, no more.
    { revision: '2025-11-25', recentDuplicate: true, maxHeld: rememberedIds },
    // Ids unique among outstanding requests: an answered id is free again and is not remembered.
    { revision: '2026-07-28', recentDuplicate: false, maxHeld: 0 },
  ];
  it.each(table)('$revision: holds at most $maxHeld ids; a recent id again is a duplicate: $recentDuplicate', ({ revision, recentDuplicate, maxHeld }) => {
    const correlator = longSession(revision);
    expect(correlator.revision).toBe(revision);
    const held = correlator.held();
    expect(held.pending).toBe(0);
    expect(held.progressTokens).toBe(0);
    expect(held.recentIds).toBeLessThanOrEqual(maxHeld);
    expect(duplicateNote(correlator, pairs - 5)).toBe(recentDuplicate);
    expect(duplicateNote(correlator, pairs + 1)).toBe(false);
  });

  it('still notes a duplicate of a pending request under either revision', () => {
    for (const revision of ['2025-11-25', '2026-07-28']) {
      const correlator = createCorrelator();
      send(correlator, 'c2s', { id: 'init', method: 'initialize', params: { protocolVersion: revision } });
      expect(send(correlator, 'c2s', { id: 'open', method: 'tools/list' }).notes).toEqual([]);
      expect(send(correlator, 'c2s', { id: 'open', method: 'tools/list' }).notes).toContain('duplicate-id');
    }
  });

  it('forgets an id only once more than the remembered number of requests came after it', () => {
    const correlator = createCorrelator();
    for (let id = 1; id <= rememberedIds + 1; id++) {
      send(correlator, 'c2s', { id, method: 'ping' });
      send(correlator, 's2c', { id, result: {} });
    }
    expect(correlator.held().recentIds).toBe(rememberedIds);
    expect(duplicateNote(correlator, 2)).toBe(true);
    expect(duplicateNote(correlator, 1)).toBe(false);
  });
});

// A full collection before each reading: the frames sent are garbage, and when it is collected
// depends on the machine's load (the bound was crossed 2 runs in 3 on a loaded machine).
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const heapUsed = () => {
  collect();
  return process.memoryUsage().heapUsed;
};

/** What each of `count` correlators made by `make` and kept keeps in the heap, in bytes. */
function heapEach(count: number, make: (index: number) => Correlator): number {
  const before = heapUsed();
  const kept = Array.from({ length: count }, (_, index) => make(index));
  const each = (heapUsed() - before) / kept.length;
  expect(kept).toHaveLength(count);
  return each;
}

describe('a correlator per stateless exchange', () => {
  it('holds nothing and costs a few bytes while it was never asked anything', () => {
    expect(createCorrelator().held()).toEqual({ pending: 0, progressTokens: 0, recentIds: 0 });
    expect(createCorrelator().unanswered()).toEqual([]);
    // Its tables, its ring of recent ids and its watches were ~4.8 KB before it had seen a frame.
    expect(heapEach(10_000, () => createCorrelator())).toBeLessThan(256);
  });

  it('costs well under a KiB once it has paired one request with its answer, which it no longer holds', () => {
    const each = heapEach(10_000, (id) => {
      const correlator = createCorrelator();
      send(correlator, 'c2s', { id, method: 'tools/call', params: { name: 'echo', _meta: { progressToken: id } } });
      send(correlator, 's2c', { id, result: {} });
      expect(correlator.held()).toEqual({ pending: 0, progressTokens: 0, recentIds: 1 });
      return correlator;
    });
    // ~5 KB each when every correlator was made whole.
    expect(each).toBeLessThan(1536);
  });

  it('costs a few KiB while it has seen one request, not the room for every id it could remember', () => {
    const before = heapUsed();
    const correlators = Array.from({ length: 1000 }, (_, id) => {
      const correlator = createCorrelator();
      send(correlator, 'c2s', { id, method: 'tools/call', params: { name: 'echo' } });
      send(correlator, 's2c', { id, result: {} });
      return correlator;
    });
    const perCorrelator = (heapUsed() - before) / correlators.length;
    // Two rings of rememberedIds slots, allocated whole, were 160 KB.
    expect(perCorrelator).toBeLessThan(16 * 1024);
    expect(correlators.every((correlator) => correlator.held().recentIds === 1)).toBe(true);
  });
});
