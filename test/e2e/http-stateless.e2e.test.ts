import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { eventually, spyInFront, v2Http } from '../helpers/http-spy.js';
import { framesOf } from '../helpers/spy.js';

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

async function scenario(url: string) {
  const client = new Client({ name: 'v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const strip = (value: unknown) => JSON.parse(JSON.stringify(value));
  const results = {
    tools: strip(await client.listTools()),
    sum: strip(await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } })),
    read: strip(await client.readResource({ uri: 'text://motd' })),
  };
  await client.close();
  return results;
}

describe('mcp-spy http in front of a 2026-07-28 server (stateless Streamable HTTP)', () => {
  const running = spyInFront('/mcp', (port) => v2Http(port));

  it('gives the v2 client in auto mode the same results, and records each exchange as its own session', async () => {
    expect(await scenario(running.spy.url)).toEqual(await scenario(running.direct));
    const frames = await eventually(() => {
      const all = framesOf(running.spy.entries());
      return all.filter((entry) => entry.kind === 'response').length === 4 ? all : undefined;
    });
    const requests = frames.filter((entry) => entry.kind === 'request');
    expect(requests.map((entry) => entry.method)).toEqual(['server/discover', 'tools/list', 'tools/call', 'resources/read']);
    expect(new Set(requests.map((entry) => entry.session)).size).toBe(4);
    for (const request of requests) {
      expect(request.session).toMatch(/^x-\d+$/);
      expect(request.rev).toBe('2026-07-28');
      const response = frames.find((entry) => entry.dir === 's2c' && entry.session === request.session);
      expect(response).toMatchObject({ kind: 'response', method: request.method, related: { seq: request.seq } });
    }
    expect(requests[2]).toMatchObject({ tool: 'add', headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'add' } });
    expect(requests[3]).toMatchObject({ uri: 'text://motd', headers: { 'mcp-method': 'resources/read', 'mcp-name': 'text://motd' } });
    expect(frames.filter((entry) => entry.notes !== undefined)).toEqual([]);
  });

  it('notes a header that disagrees with the body, and records a GET answered 405', async () => {
    const body = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 1 }, _meta: meta } };
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'subtract',
    };
    const [viaSpy, straight] = await Promise.all(
      [running.spy.url, running.direct].map((url) => fetch(url, { method: 'POST', headers, body: JSON.stringify(body) })),
    );
    expect(viaSpy!.status).toBe(straight!.status);
    expect(await viaSpy!.text()).toBe(await straight!.text());
    const get = await fetch(running.spy.url, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    await get.text();

    // The record is written a moment after the traffic: wait for the note.
    const entries = await eventually(() => {
      const all = running.spy.entries();
      return all.some((entry) => entry.kind === 'note') ? all : undefined;
    });
    const request = entries.find((entry) => entry.dir === 'c2s' && entry.id === 7)!;
    const note = entries.find((entry) => entry.kind === 'note' && entry.session === request.session);
    expect(note).toMatchObject({ notes: ['header-mismatch'], related: { seq: request.seq } });
    expect(note!.text).toContain('mcp-name "subtract" but the params.name is "add"');
    const refused = await eventually(() => running.spy.entries().find((entry) => entry.kind === 'http' && entry.httpMethod === 'GET'));
    expect(refused).toMatchObject({ status: 405, summary: 'Method Not Allowed' });
    // wire.log is written after the record (by the same observer, a moment later): wait for its line too.
    const noted = /\*\* note +header and body disagree: mcp-name "subtract"/;
    expect(await eventually(() => noted.exec(running.spy.log()) ?? undefined)).toBeTruthy();
  });
});
