// The HTTP spy keeps the DNS rebinding protection of the server behind it: a request whose Host or
// Origin is not the spy's own gets 403 from the spy and never reaches the server.
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort, startSpy, type Spy } from '../helpers/http-spy.js';
import { fixture, type TestEntry } from '../helpers/spy.js';

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 7,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'guard', version: '1.0.0' } },
});

/**
 * POSTs an initialize with the given headers (fetch may not set Host): the status and body. Each on a
 * connection of its own: an idle kept-alive one may be closed by the spy just as it is reused.
 */
function post(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(initialize);
  });
}

/** The requests the server says reached it. */
const seen = (spy: Spy) =>
  spy
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('saw '));

async function protectedBehindSpy(flags: string[] = []) {
  const port = await freePort();
  const direct = `http://127.0.0.1:${port}/mcp`;
  const spy = await startSpy(['--target', direct, ...flags], [process.execPath, fixture('http', 'protected-server.js'), '--port', String(port)]);
  return { spy, direct, port: Number(new URL(spy.url).port) };
}

describe('DNS rebinding: the spy in front of an SDK server that protects itself', () => {
  let spy: Spy;
  let direct: string;
  let port: number;

  beforeAll(async () => {
    ({ spy, direct, port } = await protectedBehindSpy());
  });
  afterAll(async () => {
    await spy?.dispose();
  });

  it('the server itself refuses a forged Host', async () => {
    const answer = await post(direct, { host: 'evil.example.com' });
    expect(answer.status).toBe(403);
    // The server's word that it saw it comes through the spy's stdout, maybe after the answer: it is
    // waited for here, or the next test would count it as forwarded (a loaded CI run did).
    await eventually(() => seen(spy).includes('saw POST /mcp host=evil.example.com'));
  });

  it('answers a forged Host 403 with a JSON-RPC error, forwards nothing, and records why', async () => {
    const before = seen(spy).length;
    const answer = await post(spy.url, { host: `evil.example.com:${port}` });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32000, message: expect.stringContaining('Host evil.example.com') },
    });
    const event = await eventually(() => spy.entries().find((entry) => entry.kind === 'http' && entry.status === 403 && String(entry.reason).includes('Host')));
    expect(event.reason).toContain('--allow-host evil.example.com');
    expect(seen(spy).slice(before)).toEqual([]);
  });

  it('answers a foreign Origin 403 and forwards nothing', async () => {
    const before = seen(spy).length;
    const answer = await post(spy.url, { origin: 'https://evil.example.com' });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).error.message).toContain('Origin https://evil.example.com');
    await eventually(() => spy.entries().find((entry) => entry.kind === 'http' && entry.status === 403 && String(entry.reason).includes('Origin')));
    expect(seen(spy).slice(before)).toEqual([]);
  });

  it('names its own -32000 "Server error" in the record and the log, not an SDK internal', async () => {
    await post(spy.url, { origin: 'https://named.example.com' });
    const refused = (entry: TestEntry) => entry.kind === 'protocol-error' && String(entry.error?.message).includes('named.example.com');
    const frame = await eventually(() => spy.entries().find(refused));
    expect(frame).toMatchObject({ origin: 'spy', error: { code: -32000 }, errorName: 'Server error' });
    const line = await eventually(() =>
      spy
        .log()
        .split('\n')
        .find((text) => text.includes(' proto-error ') && text.includes('named.example.com')),
    );
    expect(line).toMatch(/ -32000 Server error: Forbidden: mcp-spy Origin https:\/\/named\.example\.com /);
    expect(spy.log()).not.toMatch(/Connection closed|Request timeout/);
  });

  it("forwards the spy's own names and a loopback Origin", async () => {
    const allowed: Record<string, string>[] = [{ host: `localhost:${port}` }, { host: `127.0.0.1:${port}`, origin: 'http://localhost:5173' }];
    for (const headers of allowed) {
      const answer = await post(spy.url, headers);
      expect(answer.status).toBe(200);
    }
  });

  it('lets a normal SDK client work', async () => {
    const client = new Client({ name: 'guard', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(spy.url)));
    const result = await client.callTool({ name: 'echo', arguments: { message: 'through' } });
    await client.close();
    expect(result.content).toEqual([{ type: 'text', text: 'through' }]);
  });
});

describe('--allow-host and --allow-origin', () => {
  it('let a named host and origin through, and no other', async () => {
    const { spy, port } = await protectedBehindSpy(['--allow-host', 'spy.example.test', '--allow-origin', 'https://app.example.test']);
    try {
      expect((await post(spy.url, { host: `spy.example.test:${port}` })).status).toBe(200);
      expect((await post(spy.url, { origin: 'https://app.example.test' })).status).toBe(200);
      expect((await post(spy.url, { host: `other.example.test:${port}` })).status).toBe(403);
      // The two let through were seen; the other was not (their lines may come after the answers).
      await eventually(() => seen(spy).length >= 2);
      expect(seen(spy).filter((line) => line.includes('other.example.test'))).toEqual([]);
    } finally {
      await spy.dispose();
    }
  });
});
