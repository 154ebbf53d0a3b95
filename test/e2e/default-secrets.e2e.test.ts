import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually, startSpy } from '../helpers/http-spy.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { fixture, framesOf, node, readEntries, runBin, tempDir } from '../helpers/spy.js';

// Authorization, Cookie and the OAuth values were masked, but an `X-API-Key` header or a tool
// argument named `password` reached the record, the log, the live view, the report, HAR and OTLP
// in clear unless --redact named it; and OTLP spans carried the errors' own words. Now the
// well-known names are masked by default, and the words are on a span only with --otlp-content.
const temp = tempDir();
afterAll(() => temp.remove());

const secrets = {
  password: 'hunter2-horse-battery',
  apiKey: 'sk-live-0a1b2c3d4e5f',
  api_key: 'ak-9z8y7x6w5v4u',
  client_secret: 'cs-0011223344556677',
  access_token: 'at-abcdefabcdef',
  token: 'tk-1234567890ab',
};
const call = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'login',
    arguments: { user: 'bob', ...secrets, 'X-Auth-Token': 31337, schema: { properties: { password: { type: 'string' } } } },
    _meta: { progressToken: 'progress-1' },
  },
};
const input = `${JSON.stringify(call)}\n`;
const leaked = (text: string) => Object.values(secrets).filter((value) => text.includes(value));

describe('secrets masked by default', () => {
  const record = join(temp.dir, 'wire.jsonl');
  const log = join(temp.dir, 'wire.log');

  it('the stdio spy forwards them, and keeps them out of the record, the log and the live view', async () => {
    const result = await runBin(['--record', record, '--log', log, '--', node, fixture('servers', 'echo-server.js')], { input });
    // The traffic is untouched: the echo server answered with every value.
    expect(leaked(result.text)).toEqual(Object.values(secrets));
    expect(leaked(readFileSync(record, 'utf8'))).toEqual([]);
    expect(leaked(readFileSync(log, 'utf8'))).toEqual([]);
    expect(leaked(result.stderr)).toEqual([]);
    expect(result.stderr).toContain('"password":"[redacted]"');
    const [request, response] = framesOf(readEntries(record));
    expect(request!.redacted).toEqual([
      "$['params']['arguments']['password']",
      "$['params']['arguments']['apiKey']",
      "$['params']['arguments']['api_key']",
      "$['params']['arguments']['client_secret']",
      "$['params']['arguments']['access_token']",
      "$['params']['arguments']['token']",
      "$['params']['arguments']['X-Auth-Token']",
    ]);
    // A schema's property named password is a schema; a progress token is not a secret.
    expect(request!.msg).toMatchObject({
      params: { arguments: { 'X-Auth-Token': '[redacted]', schema: { properties: { password: { type: 'string' } } } }, _meta: { progressToken: 'progress-1' } },
    });
    expect(response!.redacted).toHaveLength(7);
  });

  it('nor are they in what is made from the record: report, HAR, OTLP with its content', async () => {
    const report = await runBin(['report', record, '-o', '-']);
    expect(report.code).toBe(0);
    expect(leaked(report.text)).toEqual([]);
    const har = await runBin(['export', 'har', record]);
    expect(har.code).toBe(0);
    expect(leaked(har.text)).toEqual([]);
    const receiver = await startOtlpReceiver();
    try {
      const sent = await runBin(['export', 'otlp', record, '--endpoint', receiver.url, '--otlp-content']);
      expect(sent.code).toBe(0);
      const spans = JSON.stringify(receiver.spans);
      expect(spans).toContain('[redacted]');
      expect(leaked(spans)).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('mock answers the live request that carries what the record masked; replay finds the same answers', async () => {
    const mock = await runBin(['mock', record], { input });
    expect(mock.stderr).toBe('');
    expect(JSON.parse(mock.text)).toMatchObject({ id: 1, result: { name: 'login', arguments: { password: '[redacted]' } } });
    const replay = await runBin(['replay', record, '--', node, fixture('servers', 'echo-server.js')]);
    expect(replay.text).toMatch(/^replay passed: 1 same, 0 changed/m);
    expect(replay.code).toBe(0);
  });

  it("nor in the live spy's own OTLP spans, with their content", async () => {
    const receiver = await startOtlpReceiver();
    try {
      const result = await runBin(
        ['--no-record', '--no-log', '-q', '--otlp', receiver.url, '--otlp-content', '--', node, fixture('servers', 'echo-server.js')],
        {
          input,
        },
      );
      expect(result.code).toBe(0);
      expect(leaked(result.text)).toEqual(Object.values(secrets));
      const spans = JSON.stringify(receiver.spans);
      expect(spans).toContain('tools/call login');
      expect(spans).toContain('[redacted]');
      expect(leaked(spans)).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('--no-default-redact records them as sent', async () => {
    const plain = join(temp.dir, 'plain.jsonl');
    const result = await runBin(['--record', plain, '--no-log', '-q', '--no-default-redact', '--', node, fixture('servers', 'echo-server.js')], { input });
    expect(result.code).toBe(0);
    expect(leaked(readFileSync(plain, 'utf8'))).toEqual(Object.values(secrets));
  });
});

describe("the errors' own words on OTLP spans", () => {
  it('are there only with --otlp-content', async () => {
    const line = (seq: number, fields: object) => `${JSON.stringify({ v: 2, seq, t: `2026-07-28T10:00:0${seq}.000Z`, session: 's1', ...fields })}\n`;
    const path = temp.file(
      'errors.jsonl',
      [
        line(1, { kind: 'spawn', command: ['server'], transport: 'stdio' }),
        line(2, {
          dir: 'c2s',
          kind: 'request',
          method: 'tools/call',
          id: 1,
          tool: 'login',
          bytes: 9,
          msg: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'login', arguments: {} } },
        }),
        line(3, {
          dir: 's2c',
          kind: 'tool-error',
          method: 'tools/call',
          id: 1,
          tool: 'login',
          bytes: 9,
          related: { seq: 2, id: 1, method: 'tools/call', tool: 'login' },
          msg: { jsonrpc: '2.0', id: 1, result: { isError: true, content: [{ type: 'text', text: 'login failed for key sk-tool-error-words' }] } },
        }),
        line(4, {
          dir: 'c2s',
          kind: 'request',
          method: 'prompts/get',
          id: 2,
          prompt: 'p',
          bytes: 9,
          msg: { jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'p' } },
        }),
        line(5, {
          dir: 's2c',
          kind: 'protocol-error',
          method: 'prompts/get',
          id: 2,
          bytes: 9,
          error: { code: -32602, message: 'bad token tk-protocol-words' },
          related: { seq: 4, id: 2, method: 'prompts/get' },
          msg: { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'bad token tk-protocol-words' } },
        }),
        line(6, { kind: 'exit', code: 0 }),
      ].join(''),
    );
    for (const content of [false, true]) {
      const receiver = await startOtlpReceiver();
      try {
        const sent = await runBin(['export', 'otlp', path, '--endpoint', receiver.url, ...(content ? ['--otlp-content'] : [])]);
        expect(sent.code).toBe(0);
        const spans = JSON.stringify(receiver.spans);
        expect(spans.includes('sk-tool-error-words'), `content ${content}`).toBe(content);
        expect(spans.includes('tk-protocol-words'), `content ${content}`).toBe(content);
        expect(spans).toContain('"error.type":"tool_error"');
      } finally {
        await receiver.close();
      }
    }
  });
});

describe("the errors' own words on the live spy's spans", () => {
  it('are not there without --otlp-content', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const calls = [
        { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_current_time', arguments: { timezone: 'Mars/tk-live-words' } } },
      ];
      const result = await runBin(['--no-record', '--no-log', '-q', '--otlp', receiver.url, '--', node, fixture('servers', 'time-server.js')], {
        input: calls.map((call) => `${JSON.stringify(call)}\n`).join(''),
      });
      expect(result.code).toBe(0);
      // The server said it in its tool error; the span says a tool error, not its words.
      expect(result.text).toContain('Invalid timezone: Mars/tk-live-words');
      const spans = JSON.stringify(receiver.spans);
      expect(spans).toContain('"error.type":"tool_error"');
      expect(spans).not.toContain('tk-live-words');
    } finally {
      await receiver.close();
    }
  });
});

describe('secret headers on the HTTP spy', () => {
  it('X-API-Key, Api-Key and X-Auth-Token are masked in the record, the log and HAR; the server gets them', async () => {
    const seen: Record<string, unknown>[] = [];
    const server: Server = createServer((request, response) => {
      seen.push(request.headers);
      request.resume().on('end', () => response.writeHead(405, { allow: 'POST' }).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const spy = await startSpy(['--target', target]);
    try {
      // An exchange that carries no frame (a GET the server refuses) is an `http` event, with its headers.
      const headers = { accept: 'text/event-stream', 'x-api-key': 'xk-header-secret-1', 'api-key': 'ak-header-secret-2', 'x-auth-token': 'at-header-secret-3' };
      const answer = await fetch(spy.url, { headers });
      expect(answer.status).toBe(405);
      await answer.text();
      expect(seen[0]).toMatchObject({ 'x-api-key': 'xk-header-secret-1', 'api-key': 'ak-header-secret-2', 'x-auth-token': 'at-header-secret-3' });
      await eventually(() => spy.entries().find((entry) => entry.kind === 'http' && entry.httpMethod === 'GET'));
      const text = readFileSync(join(spy.dir, 'wire.jsonl'), 'utf8');
      expect(text).toContain('"x-api-key":"[redacted]","api-key":"[redacted]","x-auth-token":"[redacted]"');
      expect(text).not.toMatch(/header-secret/);
      expect(spy.log()).not.toMatch(/header-secret/);
      const har = await runBin(['export', 'har', join(spy.dir, 'wire.jsonl')]);
      expect(har.text).toMatch(/"name": "x-api-key",\s*"value": "\[redacted\]"/);
      expect(har.text).not.toMatch(/header-secret/);
    } finally {
      await spy.dispose();
      server.close();
    }
  });
});
