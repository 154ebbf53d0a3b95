import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort, startSpy, type Spy } from '../helpers/http-spy.js';
import { allClosed, openSlow, requestHead, statusLines, trickle } from '../helpers/slow-clients.js';
import { fixture } from '../helpers/spy.js';
import { frameText } from '../../src/record/frame-message.js';

// Lowered so that the test takes seconds; every long-lived exchange below outlasts all three.
const timeouts = ['--headers-timeout', '1s', '--request-timeout', '4s', '--keep-alive-timeout', '1s'];
const silentMs = 5000;

async function connectClient(url: string, name: string) {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'trickle', version: '1' } },
});
const postHeaders = (length: number) => ({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': length });

describe('slow connections to the HTTP spy', () => {
  let spy: Spy;
  let port: number;

  beforeAll(async () => {
    const serverPort = await freePort();
    const server = [process.execPath, fixture('http', 'tool-server.js'), '--port', String(serverPort)];
    spy = await startSpy(['--target', `http://127.0.0.1:${serverPort}/mcp`, ...timeouts], server);
    port = Number(new URL(spy.url).port);
  });
  afterAll(async () => {
    await spy?.dispose();
  });

  it('closes 400 connections that send part of a request head, or nothing, while real clients go on', async () => {
    // Long-lived and silent for longer than every timeout: the GET stream, and a tools/call's SSE response.
    const streaming = await connectClient(spy.url, 'streaming');
    const listChanged = new Promise<number>((resolve) => streaming.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve(Date.now())));
    const asked = Date.now();
    await streaming.callTool({ name: 'notify-later', arguments: { ms: silentMs } });
    const sleeping = streaming.callTool({ name: 'sleep', arguments: { ms: silentMs } });

    const flood = await Promise.all(
      Array.from({ length: 400 }, (_, i) => openSlow(port, i % 4 === 0 ? '' : 'POST /slowloris HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ')),
    );
    const during = await connectClient(spy.url, 'during');
    expect(textOf(await during.callTool({ name: 'echo', arguments: { message: 'during' } }))).toBe('during');
    await during.close();

    // Each is closed by the headers timeout and the spy's check of it: waited for (with room for a
    // busy machine), as a connection held for ever would still fail it.
    await allClosed(flood, 40_000);
    expect(new Set(flood.map((connection) => statusLines(connection.received()).join()))).toEqual(new Set(['HTTP/1.1 408 Request Timeout']));

    expect(textOf(await sleeping)).toBe(`slept ${silentMs}ms`);
    expect((await listChanged) - asked).toBeGreaterThanOrEqual(silentMs);
    await streaming.close();
    const after = await connectClient(spy.url, 'after');
    expect(textOf(await after.callTool({ name: 'echo', arguments: { message: 'after' } }))).toBe('after');
    await after.close();

    const entries = await eventually(() => {
      const all = spy.entries();
      return all.some((entry) => entry.kind === 'response' && entry.tool === 'echo' && (frameText(entry) ?? '').includes('after')) ? all : undefined;
    });
    // The slow connections never became exchanges: nothing forwarded, nothing recorded.
    expect(entries.filter((entry) => entry.path === '/slowloris')).toEqual([]);
    // Nothing the spy cut: the only exchanges that failed are GET streams the clients closed themselves.
    const failed = new Set(entries.filter((entry) => entry.reason !== undefined).map((entry) => `${entry.httpMethod} ${entry.reason}`));
    expect(failed).toEqual(new Set(['GET the client closed the connection before the response ended']));
    const slept = entries.find((entry) => entry.kind === 'response' && entry.tool === 'sleep');
    // It waited out the server's silence (the spy's clock and the server's timer are not one clock:
    // a loaded run measured 4995.4 ms for 5000, so the bound leaves a second).
    expect(slept?.latencyMs).toBeGreaterThanOrEqual(silentMs - 1000);
    expect(entries.find((entry) => entry.kind === 'notification' && entry.method === 'notifications/tools/list_changed')).toBeDefined();
  });

  it('lets a slow upload through within the request timeout, and cuts one that outlasts it, saying why', async () => {
    // Longer than the headers timeout, shorter than the request timeout.
    const slow = await openSlow(port, requestHead('POST', '/mcp?slow=finished', postHeaders(initialize.length)));
    const stalled = await openSlow(port, `${requestHead('POST', '/mcp?slow=stalled', postHeaders(10_000))}{"jsonrpc":`);
    await trickle(slow, initialize, 8, 250);
    await eventually(() => slow.received().includes('"serverInfo"'), 40_000);
    expect(statusLines(slow.received())).toEqual(['HTTP/1.1 200 OK']);
    slow.socket.destroy();

    await allClosed([stalled], 15_000);
    expect(statusLines(stalled.received())).toEqual(['HTTP/1.1 408 Request Timeout']);
    const http = await eventually(() => spy.entries().find((entry) => entry.kind === 'http' && entry.path === '/mcp?slow=stalled'));
    expect(http).toMatchObject({ httpMethod: 'POST', status: 408 });
    expect(http.reason).toBe('the client had not sent its whole request after 4s (request timeout); the spy closed the connection');
  });

  it('closes a connection left idle after its response, once the keep-alive timeout has passed', async () => {
    const idle = await openSlow(port, requestHead('GET', '/mcp'));
    await allClosed([idle], 10_000);
    // The fixture answers a GET without a session 405, once; the spy says how long it keeps the connection.
    expect(statusLines(idle.received())).toEqual(['HTTP/1.1 405 Method Not Allowed']);
    expect(idle.received()).toMatch(/\r\nKeep-Alive: timeout=1\r\n/i);
  });
});
