import { get } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { lineConversation } from '../helpers/conversation.js';
import { freePort } from '../helpers/http-spy.js';
import { fixture, node, runBin } from '../helpers/spy.js';

// The metrics endpoint (--metrics) answered any Host (the HTTP spy refuses a forged one: DNS
// rebinding), served label values with raw ESC, BEL, CR and U+202E from names on the wire, and
// kept a series per name a client chose: 100,000 tool names made each scrape 10-28 MB.
const hostile = '\u001b]52;c;aGk=\u0007evil\u202etxt\r';
const stops: (() => void)[] = [];
afterAll(() => stops.forEach((stop) => stop()));

/** A stdio spy with --metrics in front of the lister server; `call` asks it one request at a time. */
async function spyWithMetrics(env: NodeJS.ProcessEnv = {}) {
  const port = await freePort();
  let conversation: ReturnType<typeof lineConversation> | undefined;
  const ran = runBin(['--no-record', '--no-log', '-q', '--metrics', `127.0.0.1:${port}`, '--', node, fixture('servers', 'lister-server.js')], {
    env,
    onStart: (child) => {
      conversation = lineConversation(child);
      stops.push(() => child.kill());
    },
  });
  const talk = conversation!;
  let id = 0;
  const call = (method: string, params?: object) => talk.request({ jsonrpc: '2.0', id: ++id, method, ...(params ? { params } : {}) });
  await call('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } });
  await call('tools/list');
  return { port, call, calls: () => id, end: () => (talk.end(), ran) };
}

/** One scrape. node:http, not fetch: fetch sends its own Host whatever it is given. */
const scrape = (port: number, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    get(`http://127.0.0.1:${port}/metrics`, { headers }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    }).on('error', reject);
  });

/** The scrape once the observer has counted every answer (it counts each a moment after it crossed). */
async function scrapeAll(port: number, calls: number): Promise<string> {
  const count = (text: string) =>
    [...text.matchAll(/^mcp_client_operation_duration_seconds_count\{[^}]*\} (\d+)/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
  let body = '';
  for (const deadline = Date.now() + 30_000; count(body) < calls && Date.now() < deadline; ) {
    body = await scrape(port).then(
      (scraped) => scraped.text,
      () => '',
    );
    if (count(body) < calls) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(count(body)).toBe(calls);
  return body;
}

/** The values a label takes in a scrape. */
const values = (body: string, label: string) => new Set([...body.matchAll(new RegExp(`${label}="((?:[^"\\\\]|\\\\.)*)"`, 'g'))].map((match) => match[1]));

describe('the metrics endpoint', () => {
  it('refuses a forged Host or a web page, escapes what the wire named, and bounds the names a client chooses', async () => {
    const spy = await spyWithMetrics();
    const { port, call } = spy;
    const names = [hostile, ...Array.from({ length: 60 }, (_, at) => `made-up-${at}`), 'listed-a', 'listed-b'];
    for (const name of names) await call('tools/call', { name, arguments: {} });
    for (let at = 0; at < 30; at++) await call(`x/custom-${at}`);
    const body = await scrapeAll(port, spy.calls());

    expect((await scrape(port, { host: `evil.example:${port}` })).status).toBe(403);
    expect((await scrape(port, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await scrape(port, { host: `localhost:${port}` })).status).toBe(200);

    expect(body).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(body).toContain('gen_ai_tool_name="\\\\u001b]52;c;aGk=\\\\u0007evil\\\\u202etxt\\\\r"');
    const tools = values(body, 'gen_ai_tool_name');
    // The tools the server listed are themselves; of the others the first 20, then `other`.
    expect(tools.has('listed-a') && tools.has('listed-b') && tools.has('other')).toBe(true);
    expect(tools.size).toBe(2 + 20 + 1);
    const methods = values(body, 'mcp_method_name');
    expect(['initialize', 'tools/list', 'tools/call', 'other'].every((method) => methods.has(method))).toBe(true);
    expect(methods.size).toBe(3 + 20 + 1);
    expect((await spy.end()).code).toBe(0);
  });

  it("bounds the names a server's list vouches for: the first 200", async () => {
    // 300 tools listed beside listed-a and listed-b (1,000 were kept: 1,023 series per instrument).
    const spy = await spyWithMetrics({ LISTER_TOOLS: '300' });
    for (let at = 0; at < 300; at++) await spy.call('tools/call', { name: `listed-${at}`, arguments: {} });
    const tools = values(await scrapeAll(spy.port, spy.calls()), 'gen_ai_tool_name');
    // listed-a, listed-b (not called) and listed-0 .. listed-197 are vouched for; of the rest the first 20, then `other`.
    expect(tools.has('listed-197') && tools.has('listed-217') && !tools.has('listed-218') && tools.has('other')).toBe(true);
    expect(tools.size).toBe(198 + 20 + 1);
    expect((await spy.end()).code).toBe(0);
  });
});
