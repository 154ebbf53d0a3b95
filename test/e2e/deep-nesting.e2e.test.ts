import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSpy, withMock } from '../helpers/http-spy.js';
import { fixture, node, readEntries, runBin, tempDir } from '../helpers/spy.js';

// A frame nested thousands of levels deep is a few KB of brackets: forwarded whole and recorded,
// it crashed every reader that walked it ("Maximum call stack size exceeded", exit 70). Values
// deeper than 1,000 levels are now read cut there, with the note nested-too-deep.
const temp = tempDir();
afterAll(() => temp.remove());

const marker = '[mcp-spy: nested deeper than 1000 levels, cut]';
const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const callText = (id: number, deep: string) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"deep":${deep}}}}`;
const answerText = (id: number, deep: string) => `{"jsonrpc":"2.0","id":${id},"result":{"name":"echo","arguments":{"deep":${deep}}}}`;

// What replay, mock and diff compare or send is the frame as read: they say so, once.
const cutLine = (path: string, line = 1) =>
  `mcp-spy: ${path}:${line}: frames nested deeper than 1000 levels (this one first) are read cut at that depth: what lies deeper is neither compared nor sent\n`;

/** A record as an mcp-spy before the cut wrote it: the deep frames spliced in whole. */
function deepRecord(depth: number): string {
  const line = (seq: number, fields: object, msg: string) =>
    `${JSON.stringify({ v: 2, seq, t: `2026-07-28T10:00:0${seq}.000Z`, session: 's1', ...fields }).slice(0, -1)},"msg":${msg}}\n`;
  const deep = deepArray(depth);
  return [
    line(1, { dir: 'c2s', kind: 'request', method: 'tools/call', id: 1, tool: 'echo', bytes: 99 }, callText(1, deep)),
    line(2, { dir: 's2c', kind: 'response', method: 'tools/call', id: 1, tool: 'echo', latencyMs: 1, bytes: 99 }, answerText(1, deep)),
  ].join('');
}

describe('a record holding a frame 5,000 levels deep', () => {
  const record = temp.file('deep.jsonl', deepRecord(5000));

  it.each([
    ['view --full', ['view', record, '--full']],
    ['view --format json', ['view', record, '--format', 'json']],
    ['view --format jsonl', ['view', record, '--format', 'jsonl']],
  ])('%s shows it cut at 1,000 levels, with the note', async (_name, args) => {
    const result = await runBin(args);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.text).toContain(marker);
    expect(result.text).toContain('nested-too-deep');
  });

  it('view, stats and check read it; check warns of it', async () => {
    for (const args of [
      ['view', record],
      ['stats', record],
      ['export', 'har', record],
      ['report', record, '-o', '-'],
    ]) {
      const result = await runBin(args);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    }
    const check = await runBin(['check', record]);
    expect(check.stderr).toBe('');
    expect(check.text).toContain('warning nested-too-deep: the frame nests deeper than 1000 levels');
  });

  it('diff compares it with itself, and says it is cut', async () => {
    const result = await runBin(['diff', record, record]);
    expect(result.stderr).toBe(cutLine(record).repeat(2));
    expect(result.code).toBe(0);
  });

  it('replay re-drives it as read, and finds the same answer', async () => {
    const result = await runBin(['replay', record, '--', node, fixture('servers', 'echo-server.js')]);
    expect(result.stderr).toBe(cutLine(record));
    expect(result.text).toMatch(/^replay passed: 1 same, 0 changed/m);
    expect(result.code).toBe(0);
  });

  it('mock answers a client sending it 5,000 deep', async () => {
    const result = await runBin(['mock', record], { input: `${callText(7, deepArray(5000))}\n` });
    expect(result.stderr).toBe(cutLine(record));
    const answer = JSON.parse(result.text);
    expect(answer.id).toBe(7);
    expect(result.text).toContain(marker);
    expect(result.code).toBe(0);
  });
});

describe('frames 50,000 levels deep', () => {
  it('the live spy forwards them whole and records them cut, masking as asked', async () => {
    const dir = tempDir();
    const record = join(dir.dir, 'wire.jsonl');
    const input = `${callText(1, deepObject(50_000))}\n${callText(2, '{"apiKey":"sk-live-0123456789"}')}\n`;
    const log = join(dir.dir, 'wire.log');
    const result = await runBin(['--record', record, '--log', log, '-q', '--redact', '$..apiKey', '--', node, fixture('servers', 'echo-server.js')], { input });
    expect(readFileSync(log, 'utf8')).toMatch(/-> request {5}tools\/call #1 tool=echo !nested-too-deep \{"arguments":\{"deep":\{"a":\{"a":/);
    // The echo server itself cannot answer so deep a frame; what matters is that the spy forwarded it.
    expect(result.stderr).not.toContain('observer stopped');
    const frames = readEntries(record).filter((entry) => entry.dir === 'c2s');
    expect(frames.map((entry) => entry.id)).toEqual([1, 2]);
    expect(frames[0]!.notes).toEqual(['nested-too-deep']);
    expect(frames[0]!.bytes).toBe(Buffer.byteLength(callText(1, deepObject(50_000))));
    expect(JSON.stringify(frames[0]!.msg)).toContain(marker);
    expect(readFileSync(record, 'utf8')).not.toContain('sk-live-0123456789');
    const view = await runBin(['view', record, '--full']);
    expect(view.stderr).toBe('');
    expect(view.code).toBe(0);
    dir.remove();
  });

  it('import reads a HAR whose bodies nest 50,000 deep', async () => {
    const deep = deepObject(50_000);
    const har = join(temp.dir, 'deep.har');
    const text = (body: string) => ({ mimeType: 'application/json', text: body });
    const entry = {
      startedDateTime: '2026-07-28T10:00:00.000Z',
      time: 1,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:3000/mcp',
        httpVersion: 'HTTP/1.1',
        headers: [{ name: 'content-type', value: 'application/json' }],
        postData: text(callText(1, deep)),
      },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: 'HTTP/1.1',
        headers: [{ name: 'content-type', value: 'application/json' }],
        content: text(answerText(1, deep)),
      },
      timings: { send: 0, wait: 1, receive: 0 },
    };
    const other = {
      ...entry,
      request: { ...entry.request, url: 'http://127.0.0.1:3000/token', postData: text(deep) },
      response: { ...entry.response, content: text(deep) },
    };
    writeFileSync(har, JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries: [other, entry] } }));
    const out = join(temp.dir, 'imported.jsonl');
    const result = await runBin(['import', har, '-o', out]);
    expect(result.stderr).toMatch(/^mcp-spy: \d+ entries imported from /);
    expect(result.code).toBe(0);
    const frames = readEntries(out).filter((item) => item.dir);
    expect(frames.map((item) => item.notes)).toEqual([['nested-too-deep'], ['nested-too-deep']]);
    for (const args of [
      ['view', out, '--full'],
      ['view', out, '--format', 'json'],
      ['replay', out, '--', node, fixture('servers', 'echo-server.js')],
    ]) {
      const read = await runBin(args);
      expect(read.stderr).toBe(args[0] === 'replay' ? cutLine(out, 2) : '');
      expect(read.code).toBe(0);
    }
  });
});

describe('the HTTP spy and a body 50,000 levels deep', () => {
  /** Answers MCP at /mcp with a deep result, and anything else (a token endpoint, say) with deep JSON. */
  function deepServer(received: string[]): Server {
    return createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'));
        const mcp = req.url === '/mcp';
        res.writeHead(200, { 'content-type': 'application/json', ...(mcp ? { 'mcp-session-id': 's-deep' } : {}) });
        res.end(mcp ? answerText(1, deepObject(50_000)) : deepArray(50_000));
      });
    });
  }

  it('forwards both ways whole, records both cut, and the record reads, as a mock too', async () => {
    const received: string[] = [];
    const upstream = deepServer(received);
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
    const spy = await startSpy(['--target', `${target}/mcp`]);
    try {
      const call = callText(1, deepObject(50_000));
      const post = (url: string, body: string) =>
        fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });
      const answer = await post(spy.url, call);
      expect(await answer.text()).toBe(answerText(1, deepObject(50_000)));
      const other = await post(spy.url.replace(/\/mcp$/, '/token'), deepArray(50_000));
      expect(await other.text()).toBe(deepArray(50_000));
      expect(received).toEqual([call, deepArray(50_000)]);
      expect(await spy.stop()).toBe(0);
      expect(spy.stderr()).not.toMatch(/observer stopped|Maximum call stack|\n\s+at /);
      const entries = spy.entries();
      const frames = entries.filter((entry) => entry.dir !== undefined);
      expect(frames.map((entry) => [entry.dir, entry.notes])).toEqual([
        ['c2s', ['nested-too-deep']],
        ['s2c', ['nested-too-deep']],
      ]);
      expect(JSON.stringify(frames.map((entry) => entry.msg))).toContain(marker);
      expect(entries.some((entry) => entry.kind === 'http' && entry.path === '/token')).toBe(true);
      expect(spy.log()).toContain('!nested-too-deep');
      const record = join(spy.dir, 'wire.jsonl');
      for (const args of [
        ['view', record, '--full'],
        ['view', record, '--format', 'json'],
        ['check', record],
        ['report', record, '-o', '-'],
      ]) {
        const read = await runBin(args);
        expect(read.stderr, args.join(' ')).toBe('');
        expect(read.code, args.join(' ')).toBeLessThan(2);
      }
      // The mock answers a client sending the same 50,000 levels with the answer as recorded: cut.
      const mocked = await withMock(record, async (url) => (await post(url, call)).json());
      expect(JSON.stringify(mocked)).toContain(marker);
    } finally {
      await spy.dispose();
      await new Promise((resolve) => upstream.close(resolve));
    }
  });
});
