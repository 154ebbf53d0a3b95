import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort, startSpy, type Spy } from '../helpers/http-spy.js';
import { fixture } from '../helpers/spy.js';

/** Posts one JSON-RPC message to the spy; returns the response's session id. */
async function post(url: string, message: object, headers: Record<string, string> = {}): Promise<string | null> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(message),
  });
  await response.text();
  return response.headers.get('mcp-session-id');
}

describe('the MCP-Protocol-Version header of a 2025 session', () => {
  let spy: Spy;

  beforeAll(async () => {
    const port = await freePort();
    spy = await startSpy(['--target', `http://127.0.0.1:${port}/mcp`], [process.execPath, fixture('http', 'tool-server.js'), '--port', String(port)]);
  });
  afterAll(async () => {
    await spy?.dispose();
  });

  it('is noted live as header-mismatch when it differs from the revision initialize agreed on, and not when it agrees', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    const session = (await post(spy.url, initialize))!;
    const common = { 'mcp-session-id': session };
    await post(spy.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...common, 'mcp-protocol-version': '2025-06-18' });
    await post(spy.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { ...common, 'mcp-protocol-version': '2025-06-18' });
    await post(spy.url, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, { ...common, 'mcp-protocol-version': '2025-03-26' });
    const notes = await eventually(() => {
      const found = spy.entries().filter((entry) => entry.kind === 'note');
      return found.length > 0 && spy.entries().some((entry) => entry.dir === 's2c' && entry.id === 3) ? found : undefined;
    });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ notes: ['header-mismatch'], related: { id: 3, method: 'tools/list' } });
    expect(String(notes[0]!.text)).toContain('mcp-protocol-version "2025-03-26" but the session negotiated "2025-06-18"');
  });
});
