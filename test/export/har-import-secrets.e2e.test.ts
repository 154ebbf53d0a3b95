import { afterAll, describe, expect, it } from 'vitest';
import { runBin, tempDir, type TestEntry } from '../helpers/spy.js';

const started = '2026-01-05T10:00:00.000Z';
const key = 'sk-live-0123456789abcdef';
const bearer = 'eyJhbGciOiJIUzI1NiJ9.payload.signature';

/** A HAR as a browser saves it, with a user's secrets in clear: a password, an API key header echoed back, a token in an SSE answer, a bearer on a GET. */
const har = {
  log: {
    version: '1.2',
    creator: { name: 'WebInspector', version: '537.36' },
    entries: [
      {
        startedDateTime: started,
        time: 5,
        request: {
          method: 'POST',
          url: 'http://127.0.0.1:3000/mcp',
          headers: [
            { name: 'Content-Type', value: 'application/json' },
            { name: 'X-API-Key', value: key },
          ],
          postData: {
            mimeType: 'application/json',
            text: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'login', arguments: { user: 'ada', password: 'hunter2' } } }),
          },
        },
        response: {
          status: 200,
          headers: [],
          content: {
            mimeType: 'application/json',
            text: JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: `logged in with ${key}` }] } }),
          },
        },
      },
      {
        startedDateTime: '2026-01-05T10:00:01.000Z',
        time: 5,
        request: {
          method: 'POST',
          url: 'http://127.0.0.1:3000/mcp',
          headers: [],
          postData: {
            mimeType: 'application/json',
            text: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'mint', arguments: {} } }),
          },
        },
        response: {
          status: 200,
          headers: [],
          content: {
            mimeType: 'text/event-stream',
            text: `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 2, result: { structuredContent: { accessToken: 'at-secret-value' }, content: [] } })}\n\n`,
          },
        },
      },
      {
        startedDateTime: '2026-01-05T10:00:02.000Z',
        time: 5,
        request: {
          method: 'GET',
          url: 'http://127.0.0.1:3000/callback?code=auth-code-123456&state=s',
          headers: [{ name: 'Authorization', value: `Bearer ${bearer}` }],
        },
        response: { status: 405, headers: [{ name: 'Set-Cookie', value: 'sid=cookie-secret-1' }], content: { mimeType: 'text/plain', text: 'no' } },
      },
    ],
  },
};
const secrets = ['hunter2', key, 'at-secret-value', bearer, 'auth-code-123456', 'cookie-secret-1'];

describe('import masks what the spies mask by default', () => {
  const dir = tempDir();
  const path = dir.file('secrets.har', JSON.stringify(har));
  afterAll(() => dir.remove());

  it('masks secret-named members, secret headers and the values they held wherever they turn up, and lists the places in redacted', async () => {
    const result = await runBin(['import', path]);
    expect(result.code).toBe(0);
    for (const secret of secrets) expect(result.text).not.toContain(secret);
    const entries = result.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as TestEntry);
    expect(entries.map((entry) => [entry.kind, entry.redacted])).toEqual([
      ['request', ["$['params']['arguments']['password']"]],
      ['response', ["$['result']['content'][0]['text']"]],
      ['request', undefined],
      ['response', ["$['result']['structuredContent']['accessToken']"]],
      // An http event lists no places, as the HTTP spy's: its headers are masked where they stand.
      ['http', undefined],
    ]);
    expect(entries[1]!.msg).toMatchObject({ result: { content: [{ text: 'logged in with [redacted]' }] } });
    expect(entries[4]).toMatchObject({
      path: '/callback?code=[redacted]&state=s',
      headers: { request: { authorization: '[redacted]' }, response: { 'set-cookie': '[redacted]' } },
    });
  });

  it('keeps them as the HAR has them with --no-default-redact', async () => {
    const result = await runBin(['import', '--no-default-redact', path]);
    expect(result.code).toBe(0);
    for (const secret of secrets) expect(result.text).toContain(secret);
    expect(result.text).not.toContain('redacted');
  });
});
