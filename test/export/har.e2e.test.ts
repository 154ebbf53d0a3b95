import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import AjvModule from 'ajv';
import formatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingHttp, recordHttp } from '../helpers/http-spy.js';
import { recordEverything } from '../helpers/recordings.js';
import { readEntries, runBin, runBinSync, tempDir, type TestEntry } from '../helpers/spy.js';

// ajv is CommonJS: under NodeNext its classes sit on `default` (as in src/check/json-schema.ts).
const Ajv = AjvModule.default;
const addFormats = formatsModule.default;
const require = createRequire(import.meta.url);
const schemas = require('har-schema') as Record<string, { $id: string }>;

/** A validator of HAR 1.2, from the har-schema package (JSON Schema draft-06). */
function harValidator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
  addFormats(ajv);
  for (const [name, schema] of Object.entries(schemas)) if (name !== 'har') ajv.addSchema(schema);
  return ajv.compile(schemas.har!);
}

/** The frames of a record as they crossed the wire: direction, kind and text, in order. */
const framesOf = (entries: TestEntry[]) =>
  entries
    .filter((entry) => entry.dir !== undefined && !(entry.batch && entry.batch.index > 0))
    .map((entry) => `${entry.dir} ${entry.kind} ${String(entry.raw)}`);

describe('HAR export and import', () => {
  const dir = tempDir();
  const validate = harValidator();
  let stdio: string;
  let http: string;

  beforeAll(async () => {
    stdio = (await recordEverything(dir.dir)).record;
    const httpDir = tempDir();
    http = join(dir.dir, 'http.jsonl');
    const recorded = await recordHttp(httpDir.dir, '/mcp', everythingHttp('streamableHttp'), {
      script: 'everything-client.js',
      flag: '--url',
      env: { SCENARIO: 'review' },
    });
    writeFileSync(http, readFileSync(recorded.record));
    httpDir.remove();
    // Two real sessions, one after the other: a loaded machine needs more than one hook's minute.
  }, 150_000);
  afterAll(() => dir.remove());

  it.each([['stdio'], ['http']])('a %s recording exports as valid HAR 1.2 and imports back to the same frames', async (which) => {
    const record = which === 'stdio' ? stdio : http;
    const harPath = join(dir.dir, `${which}.har`);
    const exported = await runBin(['export', 'har', record, '-o', harPath]);
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    const har = JSON.parse(readFileSync(harPath, 'utf8'));
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
    const back = join(dir.dir, `${which}-back.jsonl`);
    const imported = await runBin(['import', harPath, '-o', back]);
    expect(imported.code).toBe(0);
    expect(framesOf(readEntries(back))).toEqual(framesOf(readEntries(record)));
    // The imported record is a record: check reads it, and pairs responses with requests as the spy did.
    const latencies = (path: string) =>
      readEntries(path)
        .filter((entry) => entry.latencyMs !== undefined)
        .map((entry) => entry.method);
    expect(latencies(back)).toEqual(latencies(record));
    expect(runBinSync(['check', back]).stderr).toBe('');
  });

  it('puts each HTTP frame in the exchange the record says carried it, and keeps that through import', async () => {
    const otelDir = tempDir();
    try {
      const { record } = await recordHttp(otelDir.dir, '/mcp', everythingHttp('streamableHttp'), {
        script: 'everything-client.js',
        flag: '--url',
        env: { SCENARIO: 'otel' },
      });
      const recorded = readEntries(record);
      const harOf = async (path: string) =>
        JSON.parse((await runBin(['export', 'har', path])).text).log.entries as {
          request: { method: string; headers: { name: string }[] };
          response: { content: { mimeType: string } };
          _mcpFrames: { data: string; _seq: number }[];
        }[];
      const entries = await harOf(record);
      const carrying = (method: string) => entries.filter((entry) => entry._mcpFrames.some((frame) => JSON.parse(frame.data).method === method));
      // The server's request to the client came on the GET stream, not on the POST that happened to be the latest.
      expect(carrying('roots/list').map((entry) => `${entry.request.method} ${entry.response.content.mimeType}`)).toEqual(['GET text/event-stream']);
      // One entry per exchange of the record, its frames all of that exchange.
      expect(entries).toHaveLength(new Set(recorded.map((entry) => entry.exchange).filter((x) => x !== undefined)).size);
      for (const entry of entries) {
        const seqs = new Set(entry._mcpFrames.map((frame) => frame._seq));
        expect(new Set(recorded.filter((one) => seqs.has(one.seq)).map((one) => one.exchange)).size).toBeLessThanOrEqual(1);
      }
      // An exchange the record summarised in no http event has the MCP headers its frame carried.
      expect(carrying('tools/call')[0]!.request.headers.map((header) => header.name)).toContain('mcp-session-id');
      // Imported and exported again: the same entries, the GET stream's too.
      const back = join(otelDir.dir, 'back.jsonl');
      expect((await runBin(['import', join(otelDir.dir, 'x.har'), '-o', back], {})).code).toBe(2);
      writeFileSync(join(otelDir.dir, 'x.har'), (await runBin(['export', 'har', record])).text);
      expect((await runBin(['import', join(otelDir.dir, 'x.har'), '-o', back])).code).toBe(0);
      const layout = (list: typeof entries) =>
        list.map((entry) => `${entry.request.method} ${entry._mcpFrames.map((frame) => JSON.parse(frame.data).method ?? 'answer').join(',')}`);
      expect(layout(await harOf(back))).toEqual(layout(entries));
    } finally {
      otelDir.remove();
    }
  });

  it('writes a stdio session as one entry with WebSocket-style messages, HTTP as exchanges with headers and SSE text', async () => {
    const stdioHar = JSON.parse((await runBin(['export', 'har', stdio])).text);
    expect(stdioHar.log.entries).toHaveLength(1);
    const session = stdioHar.log.entries[0];
    expect(session._resourceType).toBe('websocket');
    expect(session._webSocketMessages[0]).toMatchObject({ type: 'send', opcode: 1 });
    expect(JSON.parse(session._webSocketMessages[0].data).method).toBe('initialize');

    const httpHar = JSON.parse((await runBin(['export', 'har', http])).text);
    const initialize = httpHar.log.entries.find((entry: { request: { postData?: { text: string } } }) => entry.request.postData?.text.includes('"initialize"'));
    expect(initialize.request.method).toBe('POST');
    expect(initialize.request.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(initialize.response.status).toBe(200);
    expect(initialize.response.content.mimeType).toBe('text/event-stream');
    expect(initialize.response.content.text).toMatch(/^id: .+\ndata: \n\nid: .+\ndata: \{"result":\{"protocolVersion"/);
    expect(initialize.response.headers.some((header: { name: string }) => header.name === 'mcp-session-id')).toBe(true);
  });

  it('imports a HAR at its worst: times no date can hold, a body the server answered as garbage, hostile names', async () => {
    const post = (text: string, answer: object, extra: object = {}) => ({
      startedDateTime: '2026-01-05T10:00:00.000Z',
      time: 1e300,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:3000/mcp',
        headers: [{ name: '__proto__', value: 'x' }],
        postData: { mimeType: 'application/json', text },
      },
      response: { status: 200, headers: [], content: { mimeType: 'application/json', text: JSON.stringify(answer) } },
      _mcpSession: '__proto__',
      ...extra,
    });
    const har = {
      log: {
        entries: [
          post('{"jsonrpc":"2.0","id":1,"method":', { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }),
          {
            startedDateTime: 'never',
            _webSocketMessages: [{ type: 'send', time: -1e300, opcode: 1, data: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) }],
          },
        ],
      },
    };
    const path = join(dir.dir, 'worst.har');
    writeFileSync(path, JSON.stringify(har));
    const result = await runBin(['import', path]);
    expect(result.stderr).toBe(`mcp-spy: 3 entries imported from ${path}\n`);
    expect(result.code).toBe(0);
    const entries = result.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as TestEntry);
    // The garbage the client sent stays, as the spy records it: an invalid frame, then the server's parse error.
    expect(entries.map((e) => `${e.dir} ${e.kind} ${e.session}`)).toEqual(['c2s request ws-2', 'c2s invalid __proto__', 's2c protocol-error __proto__']);
    expect(entries.map((e) => e.t)).toEqual(['1970-01-01T00:00:00.000Z', '2026-01-05T10:00:00.000Z', '2026-01-05T10:00:00.000Z']);
  });

  it('imports a HAR as a browser saves it (fetch POSTs, a JSON body, an SSE body, a page asset)', async () => {
    const started = '2026-01-05T10:00:00.000Z';
    const entry = (request: object, response: object, offsetMs: number) => ({
      startedDateTime: new Date(Date.parse(started) + offsetMs).toISOString(),
      time: 12.5,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:3000/mcp',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        queryString: [],
        headersSize: -1,
        bodySize: -1,
        ...request,
      },
      response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', cookies: [], redirectURL: '', headersSize: -1, bodySize: -1, ...response },
      cache: {},
      timings: { blocked: -1, dns: -1, ssl: -1, connect: -1, send: 0.1, wait: 10, receive: 2.4 },
      _initiator: { type: 'script' },
      _priority: 'High',
      _resourceType: 'fetch',
    });
    const headers = [
      { name: 'Content-Type', value: 'application/json' },
      { name: 'Mcp-Session-Id', value: 'browser-session' },
    ];
    const har = {
      log: {
        version: '1.2',
        creator: { name: 'WebInspector', version: '537.36' },
        pages: [],
        entries: [
          entry(
            { method: 'GET', url: 'http://127.0.0.1:3000/', headers: [] },
            { headers: [{ name: 'Content-Type', value: 'text/html' }], content: { size: 15, mimeType: 'text/html', text: '<html></html>' } },
            0,
          ),
          entry(
            {
              headers,
              postData: {
                mimeType: 'application/json',
                text: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { message: '</script>' } } }),
              },
            },
            {
              headers: [{ name: 'Content-Type', value: 'text/event-stream' }],
              content: {
                size: 100,
                mimeType: 'text/event-stream',
                text: `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } })}\n\nevent: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [], isError: true } })}\n\n`,
              },
            },
            100,
          ),
          entry(
            { headers, postData: { mimeType: 'application/json', text: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) } },
            {
              headers: [{ name: 'Content-Type', value: 'application/json' }],
              content: {
                size: 50,
                mimeType: 'application/json',
                encoding: 'base64',
                text: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 2, result: { tools: [] } })).toString('base64'),
              },
            },
            200,
          ),
        ],
      },
    };
    const path = join(dir.dir, 'browser.har');
    writeFileSync(path, JSON.stringify(har));
    const result = await runBin(['import', path]);
    expect(result.code).toBe(0);
    const entries = result.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as TestEntry);
    expect(entries.map((e) => `${e.kind} ${e.method ?? e.httpMethod} ${e.session}`)).toEqual([
      'http GET x-1',
      'request tools/call browser-session',
      'notification notifications/progress browser-session',
      'tool-error tools/call browser-session',
      'request tools/list browser-session',
      'response tools/list browser-session',
    ]);
    // The response came at the end of the exchange (12.5 ms, cut to the millisecond as startedDateTime is).
    expect(entries[3]!.latencyMs).toBe(12);
  });
});
