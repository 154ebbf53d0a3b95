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

describe('the metrics endpoint', () => {
  it('refuses a forged Host or a web page, escapes what the wire named, and bounds the names a client chooses', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/metrics`;
    let conversation: ReturnType<typeof lineConversation> | undefined;
    const ran = runBin(['--no-record', '--no-log', '-q', '--metrics', `127.0.0.1:${port}`, '--', node, fixture('servers', 'lister-server.js')], {
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
    const names = [hostile, ...Array.from({ length: 60 }, (_, at) => `made-up-${at}`), 'listed-a', 'listed-b'];
    for (const name of names) await call('tools/call', { name, arguments: {} });
    for (let at = 0; at < 30; at++) await call(`x/custom-${at}`);
    const calls = names.length + 30 + 2;

    // node:http, not fetch: fetch sends its own Host whatever it is given.
    const scrape = (headers: Record<string, string> = {}) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        get(url, { headers }, (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        }).on('error', reject);
      });
    // The observer counts each answer a moment after it crossed: the scrape is read once all are in.
    const count = (text: string) =>
      [...text.matchAll(/^mcp_client_operation_duration_seconds_count\{[^}]*\} (\d+)/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
    let body = '';
    for (const deadline = Date.now() + 30_000; count(body) < calls && Date.now() < deadline; ) {
      body = await scrape().then(
        (scraped) => scraped.text,
        () => '',
      );
      if (count(body) < calls) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(count(body)).toBe(calls);

    expect((await scrape({ host: `evil.example:${port}` })).status).toBe(403);
    expect((await scrape({ origin: 'http://evil.example' })).status).toBe(403);
    expect((await scrape({ host: `localhost:${port}` })).status).toBe(200);

    expect(body).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(body).toContain('gen_ai_tool_name="\\\\u001b]52;c;aGk=\\\\u0007evil\\\\u202etxt\\\\r"');
    const values = (label: string) => new Set([...body.matchAll(new RegExp(`${label}="((?:[^"\\\\]|\\\\.)*)"`, 'g'))].map((match) => match[1]));
    const tools = values('gen_ai_tool_name');
    // The tools the server listed are themselves; of the others the first 20, then `other`.
    expect(tools.has('listed-a') && tools.has('listed-b') && tools.has('other')).toBe(true);
    expect(tools.size).toBe(2 + 20 + 1);
    const methods = values('mcp_method_name');
    expect(['initialize', 'tools/list', 'tools/call', 'other'].every((method) => methods.has(method))).toBe(true);
    expect(methods.size).toBe(3 + 20 + 1);
    talk.end();
    expect((await ran).code).toBe(0);
  });
});
