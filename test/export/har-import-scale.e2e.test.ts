import { createWriteStream, readFileSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBin, tempDir } from '../helpers/spy.js';

// `import` of a HAR entry listing 300,000 frames died of a stack overflow (Math.min(...orders)),
// and a 162 MB HAR took 2.4 GB: it was read whole, parsed whole, and its record built whole. It is
// now read entry by entry and the record written line by line.
const temp = tempDir();
afterAll(() => temp.remove());

const frames = 200_000;

/** A HAR whose one entry, a GET stream as `export har` writes it, lists `frames` frames. */
async function writeManyFrames(path: string): Promise<void> {
  const out = createWriteStream(path);
  const put = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await put('{"log":{"version":"1.2","creator":{"name":"test","version":"1"},"entries":[{"startedDateTime":"2026-07-28T10:00:00.000Z","time":1,');
  await put(
    '"request":{"method":"GET","url":"http://127.0.0.1:3000/mcp","headers":[]},"response":{"status":200,"headers":[],"content":{"size":0,"mimeType":"text/event-stream"}},"_mcpFrames":[',
  );
  for (let at = 0; at < frames; at++) {
    const data = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: at } });
    await put(`${at > 0 ? ',' : ''}${JSON.stringify({ type: 'receive', time: 1785232800 + at / 1000, opcode: 1, data })}`);
  }
  await put(']}]}}');
  out.end();
  await once(out, 'finish');
}

/** A HAR of `count` POST exchanges, a tools/call of 600 characters and its answer each (about 2 KB an entry). */
async function writeManyExchanges(path: string, count: number): Promise<void> {
  const out = createWriteStream(path);
  const put = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const text = 'x'.repeat(600);
  const headers = [{ name: 'content-type', value: 'application/json' }];
  await put('{"log":{"version":"1.2","creator":{"name":"test","version":"1"},"entries":[');
  for (let id = 0; id < count; id++) {
    const call = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } });
    const answer = JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });
    const entry = {
      startedDateTime: new Date(Date.UTC(2026, 6, 28) + id).toISOString(),
      time: 1,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:3000/mcp',
        headers: [...headers, { name: 'mcp-session-id', value: 's1' }],
        postData: { mimeType: 'application/json', text: call },
      },
      response: { status: 200, headers, content: { size: answer.length, mimeType: 'application/json', text: answer } },
    };
    await put(`${id > 0 ? ',' : ''}${JSON.stringify(entry)}`);
  }
  await put(']}}');
  out.end();
  await once(out, 'finish');
}

describe('import at scale', () => {
  // The frames wait on disk to be put in order: a HAR twice the size of the heap imports whole
  // (held in memory, 64 MB of HAR needed more than 100 MB of it).
  it('imports a 64 MB HAR with a heap of 32 MB', { timeout: 300_000 }, async () => {
    const har = join(temp.dir, 'large.har');
    const exchanges = 36_000;
    await writeManyExchanges(har, exchanges);
    expect(statSync(har).size).toBeGreaterThan(64_000_000);
    const out = join(temp.dir, 'large.jsonl');
    const result = await runBin(['import', har, '-o', out], { env: { NODE_OPTIONS: '--max-old-space-size=32' } });
    expect(result.stderr).toBe(`mcp-spy: ${2 * exchanges} entries imported from ${har}\n`);
    expect(result.code).toBe(0);
    const lines = readFileSync(out, 'utf8').split('\n');
    expect(lines).toHaveLength(2 * exchanges + 1);
    expect(JSON.parse(lines.at(-2)!)).toMatchObject({ seq: 2 * exchanges, kind: 'response', id: exchanges - 1 });
  });

  it(`reads an entry of ${frames.toLocaleString('en')} frames`, { timeout: 180_000 }, async () => {
    const har = join(temp.dir, 'many.har');
    await writeManyFrames(har);
    const out = join(temp.dir, 'many.jsonl');
    const result = await runBin(['import', har, '-o', out]);
    expect(result.stderr).toBe(`mcp-spy: ${frames + 1} entries imported from ${har}\n`);
    expect(result.code).toBe(0);
    const lines = readFileSync(out, 'utf8').split('\n');
    expect(lines).toHaveLength(frames + 2);
    expect(JSON.parse(lines[0]!)).toMatchObject({ kind: 'http', httpMethod: 'GET' });
    expect(JSON.parse(lines[frames]!)).toMatchObject({ seq: frames + 1, kind: 'notification', msg: { params: { data: frames - 1 } } });
  });

  it('reads a HAR from standard input, past a byte order mark, as it reads a file', async () => {
    const entry = {
      startedDateTime: '2026-07-28T10:00:00.000Z',
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:3000/mcp',
        headers: [],
        postData: { mimeType: 'application/json', text: '{"jsonrpc":"2.0","id":1,"method":"ping"}' },
      },
      response: { status: 200, headers: [], content: { mimeType: 'application/json', text: '{"jsonrpc":"2.0","id":1,"result":{}}' } },
    };
    const result = await runBin(['import', '-'], { input: `\uFEFF${JSON.stringify({ log: { version: '1.2', entries: [entry] } })}\n` });
    expect(result.stderr).toBe('mcp-spy: 2 entries imported from -\n');
    expect(
      result.text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).kind),
    ).toEqual(['request', 'response']);
    const empty = await runBin(['import', '-'], { input: '{"log":{"version":"1.2","entries":[]}}' });
    expect([empty.code, empty.stderr, empty.text]).toEqual([0, 'mcp-spy: 0 entries imported from -\n', '']);
    const other = await runBin(['import', '-'], { input: '{"log":{"entries":{"a":{}}}}' });
    expect([other.code, other.stderr]).toEqual([2, 'mcp-spy: - is not a HAR file: "log.entries" is not a list\n']);
  });
});
