// Splitting an SSE answer into whole events with their bytes as sent, and rewriting one event's data: nothing spawned.
import { describe, expect, it } from 'vitest';
import { createSseBlocks, sseData, sseEvent, withSseData } from '../../src/faults/sse-blocks.js';

const stream = 'id: 1\ndata: \n\nevent: message\r\nid: 2\r\ndata: {"a":\r\ndata: 1}\r\n\r\n: comment\r\rdata: x\n\n';
const events = ['id: 1\ndata: \n\n', 'event: message\r\nid: 2\r\ndata: {"a":\r\ndata: 1}\r\n\r\n', ': comment\r\r', 'data: x\n\n'];

describe('SSE events, bytes kept', () => {
  it.each([1, 2, 3, 7, stream.length])('split whatever the chunks (%i bytes each), LF, CRLF or CR', (size) => {
    const blocks = createSseBlocks();
    const out: string[] = [];
    for (let at = 0; at < stream.length; at += size) out.push(...blocks.push(Buffer.from(stream.slice(at, at + size))).map(String));
    expect(out).toEqual(events);
    expect(blocks.end().length).toBe(0);
  });
  it('keep an unfinished event for the end', () => {
    const blocks = createSseBlocks();
    expect(blocks.push(Buffer.from('data: a\n\ndata: b\n'))).toHaveLength(1);
    expect(String(blocks.end())).toBe('data: b\n');
  });
  it('read the data, joined with LF; none for a comment', () => {
    expect(events.map((event) => sseData(Buffer.from(event)))).toEqual(['', '{"a":\n1}', undefined, 'x']);
  });
  it('rewrite the data, keeping the id and the event name', () => {
    expect(String(withSseData(Buffer.from(events[1]!), '{{"a":1}'))).toBe('event: message\nid: 2\ndata: {{"a":1}\n\n');
    expect(String(sseEvent('two\nlines'))).toBe('data: two\ndata: lines\n\n');
  });
});
