import { createServer, type Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, everythingHttp, spyInFront, startSpy, type Spy } from '../helpers/http-spy.js';
import { framesOf } from '../helpers/spy.js';

async function scenario(url: string) {
  const client = new Client({ name: 'legacy', version: '1.0.0' }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: 'assistant',
    content: { type: 'text', text: 'sampled over HTTP+SSE' },
    model: 'test-model',
  }));
  const transport = new SSEClientTransport(new URL(url));
  await client.connect(transport);
  const results = {
    tools: (await client.listTools()).tools.map((tool) => tool.name).sort(),
    echo: await client.callTool({ name: 'echo', arguments: { message: 'legacy' } }),
    sampling: await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hi', maxTokens: 5 } }),
    read: await client.readResource({ uri: 'demo://resource/static/document/architecture.md' }),
    prompt: await client.getPrompt({ name: 'args-prompt', arguments: { city: 'Paris' } }),
  };
  await client.close();
  return { results };
}

describe('mcp-spy http in front of a legacy HTTP+SSE server (2024-11-05 transport)', () => {
  const running = spyInFront('/sse', everythingHttp('sse'));

  it('works as direct, and records the stream and the posts as one session', async () => {
    const straight = await scenario(running.direct);
    const spied = await scenario(running.spy.url);
    expect(spied.results).toEqual(straight.results);
    expect(JSON.stringify(spied.results.sampling)).toContain('sampled over HTTP+SSE');

    const entries = await eventually(() => {
      const all = running.spy.entries();
      return all.some((entry) => entry.method === 'prompts/get' && entry.dir === 's2c') ? all : undefined;
    });
    const stream = entries.find((entry) => entry.kind === 'http' && entry.httpMethod === 'GET' && entry.endpoint !== undefined);
    const session = String(stream?.session);
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect(stream).toMatchObject({ path: '/sse', status: 200, endpoint: `/message?sessionId=${session}` });
    expect(stream!.summary).toContain(`endpoint /message?sessionId=${session}`);
    const frames = framesOf(entries).filter((entry) => entry.session === session);
    const seen = frames.map((entry) => `${entry.dir} ${entry.kind} ${entry.method ?? ''}`);
    for (const expected of [
      'c2s request initialize',
      's2c response initialize',
      'c2s notification notifications/initialized',
      's2c response tools/list',
      's2c request sampling/createMessage',
      'c2s response sampling/createMessage',
      's2c response resources/read',
      's2c response prompts/get',
    ])
      expect(seen).toContain(expected);
    expect(frames.filter((entry) => entry.notes !== undefined)).toEqual([]);
    const posts = entries.filter((entry) => entry.kind === 'http' && entry.httpMethod === 'POST' && entry.session === session);
    expect(posts.length).toBeGreaterThan(4);
    expect(posts.every((entry) => entry.status === 202 && entry.path === `/message?sessionId=${session}`)).toBe(true);
  });
});

describe('the legacy endpoint event', () => {
  let upstream: Server;
  let spy: Spy;
  const posted: string[] = [];

  beforeAll(async () => {
    // A legacy server that names its message endpoint with an absolute URL on its own origin.
    upstream = createServer((req, res) => {
      if (req.method === 'GET') {
        const { port } = upstream.address() as { port: number };
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`event: endpoint\ndata: http://127.0.0.1:${port}/messages?sessionId=abc\n\n`);
        return;
      }
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        posted.push(`${req.url} ${body}`);
        res.writeHead(202).end('Accepted');
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const { port } = upstream.address() as { port: number };
    spy = await startSpy(['--target', `http://127.0.0.1:${port}/sse`]);
  });
  afterAll(async () => {
    await spy?.dispose();
    upstream?.closeAllConnections();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  it('is rewritten so the client posts through the spy, and the rewrite is recorded', async () => {
    const controller = new AbortController();
    const response = await fetch(spy.url, { signal: controller.signal });
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    const text = Buffer.from(value!).toString('utf8');
    const spyOrigin = new URL(spy.url).origin;
    expect(text).toBe(`event: endpoint\ndata: ${spyOrigin}/messages?sessionId=abc\n\n`);
    const post = await fetch(`${spyOrigin}/messages?sessionId=abc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    });
    expect(post.status).toBe(202);
    expect(posted).toEqual(['/messages?sessionId=abc {"jsonrpc":"2.0","method":"notifications/initialized"}']);
    controller.abort();
    await spy.stop();
    const entries = spy.entries();
    expect(entries.find((entry) => entry.endpoint !== undefined)).toMatchObject({
      session: 'abc',
      endpoint: `http://${new URL(spy.url).host.replace(/:\d+$/, '')}:${(upstream.address() as { port: number }).port}/messages?sessionId=abc`,
      endpointRewritten: `${spyOrigin}/messages?sessionId=abc`,
    });
    expect(framesOf(entries)).toMatchObject([{ session: 'abc', dir: 'c2s', kind: 'notification', method: 'notifications/initialized' }]);
  });
});
