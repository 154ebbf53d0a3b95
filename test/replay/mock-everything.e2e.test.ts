// Acceptance: the SDK 1.x client's own script gets from `mcp-spy mock` what it got from the real
// server-everything, over stdio and over Streamable HTTP; requests the recording lacks get the documented error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { run, withMock } from '../helpers/http-spy.js';
import { bin, everythingServer, node, readEntries, recordSession, runBin, runClient, tempDir } from '../helpers/spy.js';

const temp = tempDir();
const record = join(temp.dir, 'wire.jsonl');
const timedRecord = join(temp.dir, 'timed.jsonl');
let realResults: unknown;
let timedResults: unknown;

beforeAll(async () => {
  [realResults, timedResults] = await Promise.all([
    recordSession('everything-client.js', record, [node, everythingServer, 'stdio']),
    recordSession('everything-client.js', timedRecord, [node, everythingServer, 'stdio'], { SCENARIO: 'timed' }),
  ]);
});
afterAll(() => temp.remove());

const line = (message: object) => `${JSON.stringify(message)}\n`;
const initialize = (version = '2025-11-25') =>
  line({
    jsonrpc: '2.0',
    id: 'init-1',
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
const messagesOf = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((text) => JSON.parse(text));

describe('mock from a server-everything recording', () => {
  it('gives the SDK client the same results as the real server, over stdio (sampling and roots asked of it as recorded)', async () => {
    const results = await runClient('everything-client.js', ['--', node, bin, 'mock', record]);
    expect(results).toEqual(realResults);
  });

  it('gives the same results over Streamable HTTP (--listen)', async () => {
    await withMock(record, async (url) => {
      expect(await runClient('everything-client.js', ['--url', url])).toEqual(realResults);
      // Each HTTP session uses the recorded answers afresh: a second client gets them again.
      expect(await runClient('everything-client.js', ['--url', url])).toEqual(realResults);
    });
  });

  it('--listen says where it listens on stdout, for a script, as mcp-spy http does (and where it serves from on stderr)', async () => {
    const mock = await run(node, [bin, 'mock', record, '--listen', '127.0.0.1:0'], /^mcp-spy mock: listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/m);
    try {
      expect(mock.stdout()).toBe(`mcp-spy mock: listening on ${mock.url}\n`);
      expect(mock.stderr()).toContain(`mcp-spy mock: serving ${record} at ${mock.url}`);
      expect(await runClient('everything-client.js', ['--url', mock.url])).toEqual(realResults);
    } finally {
      await mock.stop();
    }
  });

  it('speaks Streamable HTTP: a session per initialize, 404 for an unknown one, 405 for GET without one, and --on-miss close', async () => {
    await withMock(
      record,
      async (url) => {
        const post = (body: object, headers: Record<string, string> = {}) =>
          fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
            body: JSON.stringify(body),
          });
        const init = await post(JSON.parse(initialize()));
        const session = init.headers.get('mcp-session-id')!;
        expect(session).toMatch(/^[0-9a-f-]{36}$/);
        expect(await init.json()).toMatchObject({ id: 'init-1', result: { serverInfo: { name: 'mcp-servers/everything' } } });
        expect((await post({ jsonrpc: '2.0', id: 1, method: 'prompts/list' }, { 'mcp-session-id': 'nope' })).status).toBe(404);
        expect((await fetch(url, { headers: { accept: 'text/event-stream' } })).status).toBe(405);
        const prompts = await post({ jsonrpc: '2.0', id: 2, method: 'prompts/list' }, { 'mcp-session-id': session });
        expect(await prompts.json()).toMatchObject({ id: 2, result: { prompts: expect.any(Array) } });
        await expect(post({ jsonrpc: '2.0', id: 3, method: 'nope/nothing' }, { 'mcp-session-id': session })).rejects.toThrow();
      },
      ['--on-miss', 'close'],
    );
  });

  it('sends the recorded progress notifications of a long-running tool, with the live progress token', async () => {
    const results = (await runClient('everything-client.js', ['--', node, bin, 'mock', timedRecord], { SCENARIO: 'timed' })) as Record<string, unknown>;
    const real = timedResults as Record<string, unknown>;
    expect(results.long).toEqual(real.long);
    expect(results.logging).toEqual(real.logging);
    // The SDK client drops a progress notification that reaches it in one chunk with the response, from
    // a real server as from the mock; the first one always arrives well before.
    expect(results.progress).toContainEqual({ progress: 1, total: 2 });
    const call = {
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'trigger-long-running-operation', arguments: { duration: 0.2, steps: 2 }, _meta: { progressToken: 'tok-9' } },
    };
    const raw = await runBin(['mock', timedRecord], {
      input: [initialize(), line({ jsonrpc: '2.0', method: 'notifications/initialized' }), line(call)].join(''),
    });
    const messages = messagesOf(raw.text);
    const progress = messages.filter((message) => message.method === 'notifications/progress');
    expect(progress.map((message) => message.params)).toEqual([
      { progress: 1, total: 2, progressToken: 'tok-9' },
      { progress: 2, total: 2, progressToken: 'tok-9' },
    ]);
    expect(messages.findIndex((message) => message.id === 5)).toBeGreaterThan(messages.indexOf(progress[1]));
  });

  it('answers a call of a tool the recording never called with -32602, naming the tools it called (not another tool as the nearest)', async () => {
    const results = await runClient('everything-client.js', ['--', node, bin, 'mock', record], { SCENARIO: 'unknown' });
    expect(results).toEqual({
      error:
        'MCP error -32602: mcp-spy mock: no recorded answer for tools/call: the recording has no tools/call of "no-such-tool-recorded" (recorded: "echo", "get-sum", "trigger-sampling-request", "get-roots-list")',
    });
  });

  it('answers initialize with the client id and revision, an unknown method with -32601, a used-up request with -32602, ping always', async () => {
    const input = [
      initialize('2025-06-18'),
      line({ jsonrpc: '2.0', id: 'a', method: 'resources/templates/list' }),
      line({ jsonrpc: '2.0', id: 'b', method: 'prompts/list' }),
      line({ jsonrpc: '2.0', id: 'c', method: 'prompts/list' }),
      line({ jsonrpc: '2.0', id: 'd', method: 'ping' }),
    ].join('');
    const result = await runBin(['mock', record], { input });
    expect(result.code).toBe(0);
    const [init, unknown, prompts, usedUp, ping] = messagesOf(result.text);
    expect(init).toMatchObject({ id: 'init-1', result: { protocolVersion: '2025-06-18', serverInfo: { name: 'mcp-servers/everything' } } });
    expect(unknown.error.code).toBe(-32601);
    expect(unknown.error.message).toMatch(
      /^mcp-spy mock: no recorded answer for resources\/templates\/list: the recording has no resources\/templates\/list request \(recorded: tools\/list, tools\/call, prompts\/list, prompts\/get\)$/,
    );
    expect(prompts).toMatchObject({ id: 'b', result: { prompts: expect.any(Array) } });
    expect(usedUp).toMatchObject({ id: 'c', error: { code: -32602, data: { reason: 'used-up' } } });
    expect(ping).toEqual({ jsonrpc: '2.0', id: 'd', result: {} });
  });

  it('--reuse answers a request again; --on-miss close ends the session with one line and exit 1', async () => {
    const twice = [initialize(), line({ jsonrpc: '2.0', id: 1, method: 'prompts/list' }), line({ jsonrpc: '2.0', id: 2, method: 'prompts/list' })].join('');
    const reused = messagesOf((await runBin(['mock', record, '--reuse'], { input: twice })).text);
    expect(reused[1].result).toEqual(reused[2].result);
    const closed = await runBin(['mock', record, '--on-miss', 'close'], {
      input: [initialize(), line({ jsonrpc: '2.0', id: 1, method: 'nope/nothing' })].join(''),
    });
    expect(closed.code).toBe(1);
    expect(messagesOf(closed.text)).toHaveLength(1);
    expect(closed.stderr).toMatch(/^mcp-spy mock: no recorded answer for \{"jsonrpc":"2\.0","id":1,"method":"nope\/nothing"\}; closing \(--on-miss close\)\n$/);
  });

  it('emits the recorded server frames between a request and its response, and --speed 1 keeps the recorded timing', async () => {
    // The server sent four tools/list_changed once initialized, before the tools/list response: one per tool
    // it adds for what the client declared (get-roots-list, trigger-elicitation-request,
    // trigger-sampling-request, simulate-research-query).
    const input = [initialize(), line({ jsonrpc: '2.0', method: 'notifications/initialized' }), line({ jsonrpc: '2.0', id: 7, method: 'tools/list' })].join('');
    const fast = await runBin(['mock', record], { input });
    const methods = messagesOf(fast.text).map((message) => message.method ?? `response ${message.id}`);
    expect(methods).toEqual(['response init-1', ...Array(4).fill('notifications/tools/list_changed'), 'response 7']);
    const paced = await runBin(['mock', record, '--speed', '1'], { input });
    expect(messagesOf(paced.text)).toEqual(messagesOf(fast.text));
    // At recorded timing the initialize answer alone takes as long as the server took then.
    const recordedLatency = readEntries(record).find((entry) => entry.method === 'initialize' && entry.dir === 's2c')!.latencyMs as number;
    expect(paced.durationMs).toBeGreaterThanOrEqual(recordedLatency);
  });
});
