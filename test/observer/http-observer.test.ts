import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// The observer runs on a worker thread loaded from the build, so this test uses the build too.
import { startHttpObserver } from '../../dist/observer/http/http-handle.js';
import { readEntries, tempDir } from '../helpers/spy.js';

const headers = { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28' };
const body = (id: number, size = 0) => Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, result: { text: 'x'.repeat(size) } }));
const request = (id: number) => Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }));

/** An observer thread recording to a file of its own (room for `maxBehind` bytes not yet observed, or the default). */
function observing(maxBehind?: number) {
  const { dir, remove } = tempDir();
  const record = join(dir, 'r.jsonl');
  const config = { recordPath: record, live: false, color: false, maxFrame: 1024, redactHeaders: [], redact: true, mcpPath: '/mcp' };
  const observer = startHttpObserver(config, { warn: () => {}, ...(maxBehind === undefined ? {} : { maxBehind }) });
  return { observer, record, remove };
}

describe('the HTTP spy observer thread', () => {
  it('records an exchange that outran it as one gap, and the next one whole', async () => {
    const { observer, record, remove } = observing(200);
    const exchange = (id: number, size: number) => {
      const x = observer.observe({ method: 'POST', path: '/mcp', headers });
      x.requestChunk(request(id));
      x.requestEnd();
      x.response(200, { 'content-type': 'application/json' });
      const answer = body(id, size);
      x.responseChunk(answer.subarray(0, 10));
      x.responseChunk(answer.subarray(10));
      x.responseEnd();
      return answer.length;
    };
    // The request fits in the allowance; the response does not: counted from there, not copied.
    const bigger = exchange(1, 300);
    while (observer.behind > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    exchange(2, 10);
    await observer.finish();
    const entries = readEntries(record);
    expect(entries.map((entry) => [entry.kind, entry.session, entry.id])).toEqual([
      ['request', 'x-1', 1],
      ['gap', undefined, undefined],
      // The lost exchange's stateless session ends with it, not at the end of the run.
      ['unanswered', 'x-1', undefined],
      ['request', 'x-2', 2],
      ['response', 'x-2', 2],
    ]);
    // Its request is in the record; its answer is lost whole, the bytes handed over before the loss too.
    expect(entries[1]).toMatchObject({ httpMethod: 'POST', path: '/mcp', stream: 's2c', lost: bigger });
    remove();
  });

  it('counts an exchange lost in its request as a gap for each side, every byte of both', async () => {
    const { observer, record, remove } = observing(200);
    const x = observer.observe({ method: 'POST', path: '/mcp', headers });
    const call = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { text: 'y'.repeat(300) } }));
    x.requestChunk(call.subarray(0, 100));
    x.requestChunk(call.subarray(100));
    x.requestEnd();
    x.response(200, { 'content-type': 'application/json' });
    const answer = body(1, 20);
    x.responseChunk(answer);
    x.responseEnd();
    await observer.finish();
    expect(readEntries(record).map((entry) => [entry.kind, entry.stream, entry.lost])).toEqual([
      ['gap', 'c2s', call.length],
      ['gap', 's2c', answer.length],
    ]);
    remove();
  });

  it('counts an event stream lost midway from its last whole event: the events before it are frames', async () => {
    const { observer, record, remove } = observing(300);
    const x = observer.observe({ method: 'POST', path: '/mcp', headers });
    x.requestChunk(request(1));
    x.requestEnd();
    x.response(200, { 'content-type': 'text/event-stream' });
    const progress = `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } })}\n\n`;
    const answer = `data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(400) } })}\n\n`;
    // The progress event and the start of the answer go over; the rest of the answer outruns the room.
    x.responseChunk(Buffer.from(progress + answer.slice(0, 20)));
    x.responseChunk(Buffer.from(answer.slice(20)));
    x.responseEnd();
    await observer.finish();
    expect(readEntries(record).map((entry) => [entry.kind, entry.stream, entry.lost])).toEqual([
      ['request', undefined, undefined],
      ['notification', undefined, undefined],
      ['gap', 's2c', answer.length],
      ['unanswered', undefined, undefined],
    ]);
    remove();
  });

  it('records an exchange the same whether its ends ride on its messages of the same moment or cross alone later', async () => {
    const { observer, record, remove } = observing();
    const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
    const exchange = async (id: number, apart: boolean) => {
      const x = observer.observe({ method: 'POST', path: '/mcp', headers });
      const steps = [
        () => x.requestChunk(request(id)),
        () => x.requestEnd(1000 * id),
        () => x.response(200, { 'content-type': 'application/json' }, 1000 * id + 1),
        () => x.responseChunk(body(id), 1000 * id + 2),
        () => x.responseEnd(1000 * id + 5),
      ];
      for (const step of steps) {
        step();
        if (apart) await pause();
      }
    };
    await exchange(1, false);
    await exchange(2, true);
    await observer.finish();
    expect(readEntries(record).map((entry) => [entry.kind, entry.session, entry.id, entry.t, entry.latencyMs])).toEqual([
      ['request', 'x-1', 1, '1970-01-01T00:00:01.000Z', undefined],
      ['response', 'x-1', 1, '1970-01-01T00:00:01.005Z', 5],
      ['request', 'x-2', 2, '1970-01-01T00:00:02.000Z', undefined],
      ['response', 'x-2', 2, '1970-01-01T00:00:02.005Z', 5],
    ]);
    remove();
  });
});
