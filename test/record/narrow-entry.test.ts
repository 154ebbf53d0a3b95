import { describe, expect, it } from 'vitest';
import { entryTime } from '../../src/record/entry-fields.js';
import { isFrameEntry } from '../../src/record/frame-message.js';
import { parseRecordLine } from '../../src/record/reader.js';
import { eventKinds } from '../../src/record/schema.js';
import { frameKinds } from '../../src/wire/classify/kinds.js';

const envelope = { v: 2, seq: 1, t: '2026-07-28T14:05:30.250Z', session: 's' };
const read = (fields: object) => parseRecordLine(JSON.stringify({ ...envelope, ...fields }), 1);

describe('the reader narrows each line by kind', () => {
  it.each(frameKinds.map((kind) => [kind]))('a %s with its direction is a frame', (kind) => {
    const item = read({ dir: 's2c', kind, bytes: 2 });
    expect(item.ok && isFrameEntry(item.entry)).toBe(true);
  });

  it.each(eventKinds.map((kind) => [kind]))('a %s is an event', (kind) => {
    const item = read({ kind });
    expect(item.ok && !isFrameEntry(item.entry)).toBe(true);
  });

  it('skips a line of a kind it does not know, and a frame without its direction, saying why', () => {
    expect(read({ kind: 'mystery' })).toMatchObject({ ok: false, reason: 'not a record entry (unknown kind "mystery")' });
    expect(read({ kind: 'request', method: 'ping', id: 1, bytes: 2 })).toMatchObject({ ok: false, reason: 'not a record entry (a request without dir)' });
  });

  it('keeps the other fields as written: readers still look before they use them', () => {
    const item = read({ dir: 'c2s', kind: 'request', method: 42, bytes: 2 });
    expect(item).toMatchObject({ ok: true, entry: { method: 42 } });
  });
});

describe("an entry's time", () => {
  it('is its t in ms, or undefined when it has none a reader can use', () => {
    const at = (t: unknown) => {
      const item = read({ kind: 'note', notes: [], text: '', t });
      return item.ok ? entryTime(item.entry) : 'unread';
    };
    expect(at('2026-07-28T14:05:30.250Z')).toBe(Date.UTC(2026, 6, 28, 14, 5, 30, 250));
    expect(at(undefined)).toBeUndefined();
    expect(at('not a time')).toBeUndefined();
    expect(at(12)).toBeUndefined();
  });
});
