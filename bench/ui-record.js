// A generated recording for the console's benchmarks: a session's worth of v2 entries (calls with
// results of several sizes, progress, tool errors), every one a frame, written up to a size.
import { createWriteStream } from 'node:fs';

/** The record's lines, without end: calls with results of several sizes, progress, errors. */
export function* recordLines(session = 'bench') {
  const t0 = Date.parse('2026-12-01T17:00:00.000Z');
  const filler = 'lorem ipsum dolor sit amet '.repeat(40);
  let seq = 0;
  const line = (fields, msg) =>
    `${JSON.stringify({ v: 2, seq: ++seq, t: new Date(t0 + seq * 3).toISOString(), session, ...fields }).slice(0, -1)},"msg":${JSON.stringify(msg)}}\n`;
  for (let id = 1; ; id++) {
    const tool = ['search', 'fetch', 'summarize'][id % 3];
    yield line(
      { dir: 'c2s', kind: 'request', method: 'tools/call', tool, id, bytes: 90 },
      { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: { q: `query ${id}` } } },
    );
    if (id % 10 === 0)
      yield line(
        { dir: 's2c', kind: 'notification', method: 'notifications/progress', related: { seq, id, method: 'tools/call', tool }, bytes: 80 },
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: id, progress: 1 } },
      );
    const isError = id % 17 === 0;
    const result = { content: [{ type: 'text', text: filler.slice(0, 200 + (id % 7) * 100) }], ...(isError ? { isError: true } : {}) };
    yield line(
      {
        dir: 's2c',
        kind: isError ? 'tool-error' : 'response',
        method: 'tools/call',
        tool,
        id,
        latencyMs: (id % 900) + 0.5,
        related: { seq: seq - (id % 10 === 0 ? 1 : 0), id, method: 'tools/call', tool },
        bytes: 300,
      },
      { jsonrpc: '2.0', id, result },
    );
  }
}

/** Writes the record's lines to `path` until it holds at least `sizeMiB`; how many lines it wrote. */
export async function writeRecord(path, sizeMiB) {
  const out = createWriteStream(path);
  let written = 0;
  let count = 0;
  let batch = '';
  for (const text of recordLines()) {
    batch += text;
    count++;
    if (batch.length < 4 * 1024 * 1024) continue;
    if (!out.write(batch)) await new Promise((resolve) => out.once('drain', resolve));
    written += batch.length;
    batch = '';
    if (written >= sizeMiB * 1024 * 1024) break;
  }
  await new Promise((resolve) => out.end(resolve));
  return count;
}
