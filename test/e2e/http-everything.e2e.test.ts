import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { eventually, everythingHttp, spyInFront } from '../helpers/http-spy.js';
import { framesOf, type TestEntry } from '../helpers/spy.js';
import { frameText } from '../../src/record/frame-message.js';

/** A client that can answer the server's sampling and elicitation requests. */
function newClient(name: string) {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: 'assistant',
    content: { type: 'text', text: 'sampled by the test client' },
    model: 'test-model',
    stopReason: 'endTurn',
  }));
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
  return client;
}

/** Everything a session does in this test, with the results that must not depend on the spy. */
async function scenario(url: string) {
  const client = newClient('scenario');
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  const progress: unknown[] = [];
  const results = {
    tools: (await client.listTools()).tools.map((tool) => tool.name).sort(),
    echo: await client.callTool({ name: 'echo', arguments: { message: 'through the spy' } }),
    sum: await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 40 } }),
    long: await client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.4, steps: 2 } }, undefined, {
      onprogress: (value) => progress.push(value),
    }),
    sampling: await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hello', maxTokens: 5 } }),
    elicitation: await client.callTool({ name: 'trigger-elicitation-request', arguments: {} }),
    resources: (await client.listResources()).resources.map((resource) => resource.uri).sort(),
    prompt: await client.getPrompt({ name: 'simple-prompt' }),
    progress,
  };
  const firstResource = results.resources.find((uri) => uri.startsWith('demo://resource/static/'))!;
  const read = await client.readResource({ uri: firstResource });
  const sessionId = transport.sessionId!;
  await transport.terminateSession();
  await client.close();
  return { results: { ...results, read }, sessionId };
}

describe('mcp-spy http in front of server-everything (Streamable HTTP)', () => {
  const running = spyInFront('/mcp', everythingHttp('streamableHttp'));

  let viaSpy: Awaited<ReturnType<typeof scenario>>;

  it('gives the client the same results as talking to the server directly', async () => {
    const [straight, spied] = [await scenario(running.direct), await scenario(running.spy.url)];
    viaSpy = spied;
    expect(spied.results).toEqual(straight.results);
    expect(spied.results.tools).toContain('trigger-sampling-request');
    expect(spied.results.progress).toHaveLength(2);
    expect(JSON.stringify(spied.results.sampling)).toContain('sampled by the test client');
    expect(JSON.stringify(spied.results.elicitation)).toContain('decline');
  });

  it('records every frame of the session with its kind, annotations and session id', async () => {
    const session = viaSpy.sessionId;
    const entries = await eventually(() => {
      const all = running.spy.entries();
      return all.some((entry) => entry.httpMethod === 'DELETE' && entry.session === session) ? all : undefined;
    });
    const frames = framesOf(entries).filter((entry) => entry.session === session);
    const line = (entry: TestEntry) => `${entry.dir} ${entry.kind} ${entry.method ?? ''}`;
    const seen = frames.map(line);
    for (const expected of [
      'c2s request initialize',
      's2c response initialize',
      'c2s notification notifications/initialized',
      'c2s request tools/list',
      'c2s request tools/call',
      's2c notification notifications/progress',
      's2c request sampling/createMessage',
      'c2s response sampling/createMessage',
      's2c request elicitation/create',
      'c2s response elicitation/create',
      'c2s request resources/read',
      'c2s request prompts/get',
      's2c response prompts/get',
    ])
      expect(seen).toContain(expected);
    // The initialize request carried no session id yet: it belongs to the session its response assigned.
    expect(frames[0]).toMatchObject({ kind: 'request', method: 'initialize', rev: '2025-11-25' });
    const calls = frames.filter((entry) => entry.kind === 'response' && entry.method === 'tools/call');
    expect(calls.map((entry) => entry.tool)).toEqual([
      'echo',
      'get-sum',
      'trigger-long-running-operation',
      'trigger-sampling-request',
      'trigger-elicitation-request',
    ]);
    expect(calls.every((entry) => typeof entry.latencyMs === 'number')).toBe(true);
    const progress = frames.filter((entry) => entry.method === 'notifications/progress');
    expect(progress.map((entry) => entry.related?.method)).toEqual(['tools/call', 'tools/call']);
    expect(frames.filter((entry) => entry.notes !== undefined)).toEqual([]);
    // SSE event ids are kept on the frames that came as events.
    expect(frames.find((entry) => entry.dir === 's2c' && entry.method === 'tools/list')?.sse).toMatchObject({ id: expect.any(String) });

    const http = entries.filter((entry) => entry.kind === 'http' && entry.session === session);
    const summaries = http.map((entry) => `${entry.httpMethod} ${entry.status} ${entry.summary}`);
    expect(summaries[0]).toBe(`POST 200 OK; session ${session} assigned; SSE stream`);
    expect(summaries).toContain('POST 202 Accepted');
    expect(summaries).toContain('DELETE 200 OK; session ended');
    expect(summaries.some((text) => text.startsWith('GET 200 OK; SSE stream'))).toBe(true);
    // wire.log follows the record a moment later: wait for the line rather than read it once.
    const assigned = `** http        POST /mcp 200 OK; session ${session} assigned; SSE stream`;
    expect(await eventually(() => running.spy.log().includes(assigned) || undefined)).toBe(true);
    // 2025-11-25 streams start with a priming event: an id the client may resume after, no data.
    const priming = http.filter((entry) => String(entry.summary).startsWith('SSE priming event, id '));
    expect(priming.length).toBeGreaterThan(0);
    expect(priming[0]!.sse).toMatchObject({ id: expect.any(String) });
  });

  it('keeps three concurrent clients in three sessions without mixing their frames', async () => {
    const clients = await Promise.all(
      ['alpha', 'beta', 'gamma'].map(async (name) => {
        const client = newClient(name);
        const transport = new StreamableHTTPClientTransport(new URL(running.spy.url));
        await client.connect(transport);
        return { name, client, transport };
      }),
    );
    await Promise.all(
      clients.map(async ({ name, client }) => {
        for (let i = 0; i < 5; i++) {
          const result = await client.callTool({ name: 'echo', arguments: { message: `${name}-${i}` } });
          expect(JSON.stringify(result)).toContain(`${name}-${i}`);
        }
      }),
    );
    const sessions = clients.map(({ transport }) => transport.sessionId!);
    await Promise.all(clients.map(({ client }) => client.close()));
    expect(new Set(sessions).size).toBe(3);
    const frames = await eventually(() => {
      const all = framesOf(running.spy.entries());
      return all.filter((entry) => entry.kind === 'response' && sessions.includes(String(entry.session)) && entry.tool === 'echo').length === 15
        ? all
        : undefined;
    });
    clients.forEach(({ name }, index) => {
      const own = frames.filter((entry) => entry.session === sessions[index]);
      const echoes = own.filter((entry) => entry.tool === 'echo');
      expect(echoes).toHaveLength(10);
      for (const entry of echoes) expect(frameText(entry)).toMatch(new RegExp(`${name}-\\d`));
      expect(echoes.filter((entry) => entry.kind === 'response').every((entry) => entry.related !== undefined)).toBe(true);
      expect(own[0]).toMatchObject({ method: 'initialize', dir: 'c2s' });
    });
  });
});
