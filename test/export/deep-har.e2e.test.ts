import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readEntries, runBin, tempDir } from '../helpers/spy.js';

// A HAR is JSON from outside: any member may nest as deep as its text allows, not only the bodies.
// A header's value 50,000 arrays deep was read as text by recursion (String of an array) and import
// stopped with "not a HAR file: not JSON (Maximum call stack size exceeded)".
const temp = tempDir();
afterAll(() => temp.remove());

const marker = '[mcp-spy: nested deeper than 1000 levels, cut]';
const depth = 50_000;
const deepArray = `${'['.repeat(depth)}1${']'.repeat(depth)}`;
const deepObject = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
const deepAnswer = `{"jsonrpc":"2.0","id":1,"result":{"deep":${deepObject}}}`;

/** A HAR whose every member that is not a body may nest deep: spliced as text, JSON.stringify would overflow making it. */
function deepHar(): string {
  const stream = `{"startedDateTime":"2026-07-28T10:00:00.000Z","time":1,"comment":${deepArray},"_mcpSession":${deepArray},
    "request":{"method":"GET","url":"http://127.0.0.1:3000/mcp","headers":[{"name":"X-Deep","value":${deepArray}},{"name":"Authorization","value":${deepObject}}],"queryString":${deepArray}},
    "response":{"status":200,"headers":[{"name":"Set-Cookie","value":${deepArray}}],"content":{"mimeType":"text/event-stream","text":"","comment":${deepObject}}},
    "_mcpFrames":[{"type":"receive","time":1785232800.5,"opcode":1,"data":${JSON.stringify(ping.replace('"id":1,', ''))},"_seq":${deepArray}}]}`;
  const post = `{"startedDateTime":"2026-07-28T10:00:01.000Z","time":1,
    "request":{"method":"POST","url":"http://127.0.0.1:3000/mcp","headers":[],"postData":{"mimeType":"application/json","text":${JSON.stringify(ping)},"params":${deepArray}}},
    "response":{"status":200,"headers":[],"content":{"mimeType":"text/event-stream","text":${JSON.stringify(`event: message\ndata: ${deepAnswer}\n\n`)}}}}`;
  // Its frames listed as a list nested deep, which holds no message: its bodies are what it carried.
  const listed = `{"startedDateTime":"2026-07-28T10:00:02.000Z","time":1,"_mcpFrames":[${deepArray}],
    "request":{"method":"POST","url":"http://127.0.0.1:3000/mcp","headers":[],"postData":{"mimeType":"application/json","text":${JSON.stringify(ping.replace('"id":1', '"id":2'))}}},
    "response":{"status":200,"headers":[],"content":{"mimeType":"application/json","text":${JSON.stringify('{"jsonrpc":"2.0","id":2,"result":{}}')}}}}`;
  return `{"log":{"version":"1.2","creator":{"name":"test","version":"1","comment":${deepArray}},"pages":${deepArray},"entries":[${stream},${post},${listed}]}}`;
}

describe('a HAR nested 50,000 deep outside its bodies', () => {
  it('imports, header values read cut, and every reader reads the record', async () => {
    const har = temp.file('deep-outside.har', deepHar());
    const out = join(temp.dir, 'deep-outside.jsonl');
    const imported = await runBin(['import', har, '-o', out]);
    expect(imported.stderr).toBe(`mcp-spy: 6 entries imported from ${har}\n`);
    expect(imported.code).toBe(0);
    const entries = readEntries(out);
    expect(entries.map((entry) => `${entry.kind} ${entry.method ?? entry.httpMethod}`)).toEqual([
      'http GET',
      'notification ping',
      'request ping',
      'response ping',
      'request ping',
      'response ping',
    ]);
    // A value that is no text is read as text, cut; a secret header is masked however it is written.
    expect(entries[0]!.headers).toEqual({ request: { 'x-deep': marker, authorization: '[redacted]' }, response: { 'set-cookie': '[redacted]' } });
    expect(entries[3]!.notes).toEqual(['nested-too-deep']);
    for (const args of [
      ['view', out, '--full'],
      ['check', out],
      ['report', out, '-o', '-'],
      ['export', 'har', out],
    ]) {
      const read = await runBin(args);
      expect(read.stderr, args.join(' ')).not.toMatch(/\n\s+at |Maximum call stack/);
      expect(read.code, args.join(' ')).toBeLessThan(2);
    }
  });
});
