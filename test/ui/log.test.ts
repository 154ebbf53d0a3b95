import { describe, expect, it } from 'vitest';
import { EntryLog } from '../../src/ui/log.js';
import { reduce } from '../../src/ui/reducer.js';
import { initialState } from '../../src/ui/state.js';
import { memoryLoader, recordWriter, sourceEntries } from '../helpers/ui-records.js';
import { parseRecordLine } from '../../src/record/reader.js';
import { fieldOf } from '../../src/record/entry-fields.js';
import type { RecordEntry } from '../../src/record/schema.js';

const entryOf = (line: string) => {
  const read = parseRecordLine(line, 1);
  if (!read.ok) throw new Error(read.reason);
  return read.entry;
};

describe('the console log: an index of columns', () => {
  it('holds the fields filters and the tools summary read, and where each line is (past 4 GiB too)', () => {
    const w = recordWriter('s1');
    w.frame('s2c', 'response', { method: 'tools/call', id: 7, tool: 'search', latencyMs: 2.6 }, { id: 7, result: {} });
    const log = new EntryLog();
    const slot = log.slot('f\u0000s1', 'f.jsonl', 's1');
    const entry = entryOf(w.lines[0]!);
    const index = log.append(slot, entry, { offset: 5 * 2 ** 32 + 7, length: 99 }, false);
    expect(log.isExact(index)).toBe(true);
    expect({ ...log.brief(index) }).toEqual({
      seq: 1,
      t: entry.t,
      kind: 'response',
      dir: 's2c',
      method: 'tools/call',
      tool: 'search',
      latencyMs: 2.6,
      bytes: fieldOf(entry, 'bytes'),
      session: 's1',
    });
    expect(log.place(index)).toMatchObject({ file: 'f.jsonl', offset: 5 * 2 ** 32 + 7, length: 99 });
    expect(log.keptEntry(index)).toBeUndefined();
  });

  it('holds sizes past its 16-bit columns exactly: a line of 2 GiB, a frame of 5 GiB', () => {
    const w = recordWriter('s1');
    const log = new EntryLog();
    const slot = log.slot('f\u0000s1', 'f.jsonl', 's1');
    const sizes = [0, 65533, 65534, 65535, 65536, 2 ** 20, 5 * 2 ** 30];
    const indexes = sizes.map((size, at) => {
      w.frame('c2s', 'request', { method: 'ping', id: at }, { id: at, method: 'ping' });
      // (The writer counts the frame's bytes: the size is put in its place, as a larger frame would have it.)
      return log.append(slot, { ...entryOf(w.lines[at]!), bytes: size } as RecordEntry, { offset: at, length: Math.min(size, 2 ** 31) }, false);
    });
    for (const [at, index] of indexes.entries()) {
      expect(log.isExact(index)).toBe(true);
      expect(fieldOf(log.brief(index), 'bytes')).toBe(sizes[at]);
      expect(log.place(index).length).toBe(Math.min(sizes[at]!, 2 ** 31));
    }
  });

  it('marks what it cannot hold exactly, and a filter then reads the entry again', () => {
    const w = recordWriter('s1');
    const long = `tools/${'x'.repeat(300)}`;
    w.frame('c2s', 'request', { method: long, id: 1 }, { id: 1, method: long });
    w.frame('c2s', 'request', { method: 'ping', id: 2, latencyMs: 1 / 3 }, { id: 2, method: 'ping' });
    const file = 'wire.jsonl';
    const state = reduce(initialState({ load: memoryLoader({ [file]: w.lines }) }), { type: 'entries', items: sourceEntries(file, w.lines) });
    expect(state.log.isExact(0)).toBe(false);
    expect(state.log.isExact(1)).toBe(false);
    const filtered = reduce(reduce(reduce(state, { type: 'filter-start' }), { type: 'filter-edit', text: `method = "${long}"` }), { type: 'filter-apply' });
    expect(filtered.visible.toArray()).toEqual([0]);
    const slow = reduce(reduce(reduce(state, { type: 'filter-start' }), { type: 'filter-edit', text: 'latency > 0.3333' }), { type: 'filter-apply' });
    expect(slow.visible.toArray()).toEqual([1]);
  });

  it('filters on fields it does not hold (id, time) by reading them again, and on the ones it holds without', () => {
    const w = recordWriter('s1');
    for (let id = 1; id <= 4; id++) w.frame('c2s', 'request', { method: 'tools/call', tool: id % 2 ? 'a' : 'b', id }, { id, method: 'tools/call' });
    const file = 'wire.jsonl';
    const reads: number[] = [];
    const loader = memoryLoader({ [file]: w.lines });
    const state = reduce(initialState({ load: (row) => (reads.push(row.index), loader(row)) }), { type: 'entries', items: sourceEntries(file, w.lines) });
    const apply = (text: string) =>
      reduce(reduce(reduce(state, { type: 'filter-start' }), { type: 'filter-edit', text }), { type: 'filter-apply' }).visible.toArray();
    reads.length = 0;
    expect(apply('tool = b')).toEqual([1, 3]);
    expect(reads).toEqual([]);
    expect(apply(`time > "${entryOf(w.lines[1]!).t}"`)).toEqual([2, 3]);
    expect(reads).toEqual([]);
    expect(apply('id = 3')).toEqual([2]);
    expect(reads.length).toBeGreaterThan(0);
  });
});
