import { describe, expect, it } from 'vitest';
import { createSseFramer } from '../../src/wire/framing/sse-framer.js';

const feed = (chunks: string[], max = 1024) => {
  const framer = createSseFramer(max);
  const events = chunks.flatMap((chunk) => framer.push(Buffer.from(chunk, 'utf8')));
  return [...events, ...framer.end()];
};

describe('createSseFramer', () => {
  it.each([
    ['one event', ['data: {"a":1}\n\n'], [{ data: '{"a":1}' }]],
    ['id, type and multi-line data', ['id: 7\nevent: message\ndata: a\ndata: b\n\n'], [{ id: '7', event: 'message', data: 'a\nb' }]],
    ['split anywhere, CRLF endings', ['da', 'ta: x\r', '\n\r\ndata: y\n', '\n'], [{ data: 'x' }, { data: 'y' }]],
    ['comments (keep-alives) are no events', [': ping\n\ndata: z\n\n'], [{ data: 'z' }]],
    ['a priming event: an id and empty data', ['id: p1\nretry: 500\ndata:\n\n'], [{ id: 'p1', retry: 500, data: '' }]],
    ['an unfinished event at the end is dropped', ['data: whole\n\ndata: half'], [{ data: 'whole' }]],
  ])('%s', (_name, chunks, expected) => {
    expect(feed(chunks)).toEqual(expected);
  });

  it('joins a UTF-8 character split between chunks', () => {
    const framer = createSseFramer(1024);
    const bytes = Buffer.from('data: €\n\n', 'utf8');
    expect([...framer.push(bytes.subarray(0, 7)), ...framer.push(bytes.subarray(7))]).toEqual([{ data: '€' }]);
  });

  it('keeps the start of an event above the limit, marked truncated', () => {
    expect(feed([`data: ${'x'.repeat(200)}\n\ndata: next\n\n`], 64)).toEqual([{ data: 'x'.repeat(64), truncated: true }, { data: 'next' }]);
  });

  it('drops an event that outgrows the limit across chunks, marked truncated, and goes on with the next', () => {
    const chunks = ['data: ', ...Array.from({ length: 10 }, () => 'x'.repeat(20)), '\n\n', 'data: next\n\n'];
    expect(feed(chunks, 64)).toEqual([{ data: '', truncated: true }, { data: 'next' }]);
  });
});
