// A HAR saved by a real browser: headless Chromium records its own network traffic (its recordHar is
// the browser's HAR writer) while a page talks Streamable HTTP to server-everything; import reads it.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumPath, launchBrowser } from '../helpers/browser.js';
import { everythingHttp, withServer } from '../helpers/http-spy.js';
import { readEntries, runBin, tempDir, type TestEntry } from '../helpers/spy.js';

/** What the page does: the handshake, a tool call and a prompt that does not exist, with fetch. */
async function talkMcp() {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  let session = '';
  const post = async (body: object) => {
    const response = await fetch('/mcp', {
      method: 'POST',
      headers: session ? { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : headers,
      body: JSON.stringify(body),
    });
    session ||= response.headers.get('mcp-session-id') ?? '';
    return `${response.status} ${(await response.text()).length > 0}`;
  };
  return [
    await post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'browser', version: '1' } },
    }),
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { message: '</script>' } } }),
    await post({ jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'no-such-prompt' } }),
  ];
}

describe.skipIf(!chromiumPath)('a HAR saved by headless Chromium', () => {
  it('imports as the session the page had: frames paired, the page itself an http event, check clean', async () => {
    const dir = tempDir();
    const har = join(dir.dir, 'chromium.har');
    try {
      await withServer(everythingHttp('streamableHttp'), /listening on port/i, async (port) => {
        const browser = await launchBrowser();
        try {
          const context = await browser.newContext({ recordHar: { path: har, content: 'embed' } });
          const page = await context.newPage();
          // A page of the server's origin, so the page's fetches are same-origin (the server has no page of its own).
          const origin = `http://127.0.0.1:${port}/`;
          await page.route(origin, (route) => route.fulfill({ contentType: 'text/html', body: '<html><body>mcp</body></html>' }));
          await page.goto(origin);
          expect(await page.evaluate(talkMcp)).toEqual(['200 true', '202 false', '200 true', '200 true']);
          await context.close();
        } finally {
          await browser.close();
        }
      });
      const record = join(dir.dir, 'wire.jsonl');
      const imported = await runBin(['import', har, '-o', record]);
      expect(imported.stderr).toBe(`mcp-spy: 8 entries imported from ${har}\n`);
      const entries = readEntries(record);
      expect(entries.map((entry: TestEntry) => `${entry.kind} ${entry.method ?? entry.httpMethod}`)).toEqual([
        'http GET',
        'request initialize',
        'response initialize',
        'notification notifications/initialized',
        'request tools/call',
        'response tools/call',
        'request prompts/get',
        'protocol-error prompts/get',
      ]);
      const sessions = new Set(entries.filter((entry) => entry.dir).map((entry) => entry.session));
      expect([...sessions]).toHaveLength(1);
      expect([...sessions][0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(entries.every((entry) => entry.kind !== 'response' || entry.latencyMs !== undefined)).toBe(true);
      expect((await runBin(['check', record])).code).toBe(0);
      // The page's own exchange, in words once: its status is not said twice.
      expect((await runBin(['view', record])).text).toMatch(/\*\* http +GET \/ 200 text\/html\n/);
    } finally {
      dir.remove();
    }
  });
});
