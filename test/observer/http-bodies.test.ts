import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// The observer runs on a worker thread loaded from the build, so this test uses the build too.
import { startHttpObserver } from '../../dist/observer/http/http-handle.js';
import { readEntries, tempDir, type TestEntry } from '../helpers/spy.js';
import { frameText } from '../../src/record/frame-message.js';

type Observer = ReturnType<typeof startHttpObserver>;

/** One exchange handed to the observer as the proxy would: head, body, response head, body, end. */
function exchange(
  observer: Observer,
  request: { method?: string; path: string; headers?: Record<string, string>; body?: string },
  response: { status: number; headers?: Record<string, string>; body?: string },
) {
  const x = observer.observe({ method: request.method ?? 'POST', path: request.path, headers: request.headers ?? {} });
  if (request.body !== undefined) x.requestChunk(Buffer.from(request.body));
  x.requestEnd();
  x.response(response.status, response.headers ?? {});
  if (response.body !== undefined) x.responseChunk(Buffer.from(response.body));
  x.responseEnd();
}

async function observe(
  options: { redact?: boolean; redactPaths?: string[] },
  drive: (observer: Observer) => void,
): Promise<{ entries: TestEntry[]; text: string }> {
  const { dir, remove } = tempDir();
  const record = join(dir, 'r.jsonl');
  const observer = startHttpObserver(
    {
      recordPath: record,
      live: false,
      color: false,
      maxFrame: 1 << 20,
      redactHeaders: [],
      redact: options.redact ?? true,
      mcpPath: '/mcp',
      redactPaths: options.redactPaths ?? [],
    },
    { warn: () => {} },
  );
  drive(observer);
  await observer.finish();
  const entries = readEntries(record);
  remove();
  return { entries, text: JSON.stringify(entries) };
}

const json = { 'content-type': 'application/json' };
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const tokenBody = JSON.stringify({ access_token: 'at-0123456789abcdef', refresh_token: 'rt-0123456789abcdef', token_type: 'Bearer', expires_in: 60 });
const tokenForm = 'grant_type=refresh_token&refresh_token=rt-0123456789abcdef&client_secret=cs-0123456789abcdef';

describe('bodies that are not MCP', () => {
  it('describes OAuth, forms and HTML in http events and keeps garbage sent to the MCP endpoint an invalid frame', async () => {
    const { entries, text } = await observe({}, (observer) => {
      exchange(observer, { path: '/token', headers: form, body: tokenForm }, { status: 200, headers: json, body: tokenBody });
      exchange(
        observer,
        { method: 'GET', path: '/login' },
        { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<html>sign in</html>' },
      );
      exchange(
        observer,
        { path: '/token', headers: form, body: 'grant_type=authorization_code&code=bad' },
        { status: 400, headers: json, body: '{"error":"invalid_grant","error_description":"code expired"}' },
      );
      exchange(observer, { path: '/mcp', headers: form, body: 'a=b' }, { status: 400, headers: { 'content-type': 'text/plain' }, body: 'bad request' });
    });
    const http = entries.filter((entry) => entry.kind === 'http');
    expect(http.map((entry) => [entry.path, entry.status, entry.summary])).toEqual([
      ['/token', 200, 'application/json: token issued, Bearer, expires in 60s, with a refresh token; refresh_token grant'],
      ['/login', 200, 'text/html: 20 bytes'],
      ['/token', 400, 'application/json: OAuth error invalid_grant: code expired; authorization_code grant'],
      ['/mcp', 400, 'Bad Request'],
    ]);
    expect(http[0]).toMatchObject({
      contentType: 'application/json',
      requestBody: 'grant_type=refresh_token&refresh_token=[redacted]&client_secret=[redacted]',
    });
    expect(http[1]).toMatchObject({ contentType: 'text/html', body: '<html>sign in</html>' });
    const frames = entries.filter((entry) => entry.dir !== undefined);
    expect(frames.map((entry) => [entry.kind, entry.path, entry.raw])).toEqual([['invalid', undefined, 'a=b']]);
    for (const secret of ['at-0123456789abcdef', 'rt-0123456789abcdef', 'cs-0123456789abcdef']) expect(text).not.toContain(secret);
  });

  it('records them as sent with --no-redact', async () => {
    const { entries } = await observe({ redact: false }, (observer) => {
      exchange(observer, { path: '/token', headers: form, body: tokenForm }, { status: 200, headers: json, body: tokenBody });
    });
    expect(entries.find((entry) => entry.kind === 'http')).toMatchObject({ requestBody: tokenForm, body: tokenBody });
  });
});

describe('an auth challenge in the middle of a session', () => {
  it('withdraws the refused request: its retry with the same id is no duplicate, nothing is unanswered', async () => {
    const session = { ...json, 'mcp-session-id': 's-1', 'mcp-protocol-version': '2025-06-18' };
    const call = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search', arguments: {} } });
    const challenge =
      'Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="http://127.0.0.1:9/.well-known/oauth-protected-resource"';
    const { entries } = await observe({}, (observer) => {
      exchange(
        observer,
        { path: '/mcp', headers: session, body: call },
        { status: 403, headers: { ...json, 'www-authenticate': challenge }, body: '{"error":"insufficient_scope"}' },
      );
      exchange(
        observer,
        { path: '/mcp', headers: session, body: call },
        { status: 200, headers: json, body: '{"jsonrpc":"2.0","id":7,"result":{"content":[]}}' },
      );
    });
    const refused = entries.find((entry) => entry.kind === 'http')!;
    expect(refused).toMatchObject({
      status: 403,
      challenge: { scheme: 'Bearer', error: 'insufficient_scope', scope: 'files:read files:write' },
      requests: [{ seq: 1, dir: 'c2s', id: 7, method: 'tools/call' }],
      body: '{"error":"insufficient_scope"}',
    });
    expect(refused.summary).toBe(
      'Forbidden; auth challenge: Bearer, resource_metadata http://127.0.0.1:9/.well-known/oauth-protected-resource, scope files:read files:write, error insufficient_scope; tools/call #7 to be sent again once authorized',
    );
    expect(entries.filter((entry) => entry.dir !== undefined).map((entry) => [entry.kind, entry.id, entry.notes])).toEqual([
      ['request', 7, undefined],
      ['request', 7, undefined],
      ['response', 7, undefined],
    ]);
    expect(entries.filter((entry) => entry.kind === 'unanswered')).toEqual([]);
  });
});

describe('--redact on the HTTP spy', () => {
  it('masks the path in request frames and the secret wherever the session repeats it', async () => {
    const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'fetch', arguments: { apiKey: 'key-0123456789', q: 'mcp' } } });
    const answer = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'used key-0123456789' }] } });
    const { entries, text } = await observe({ redactPaths: ['params.arguments.apiKey'] }, (observer) => {
      exchange(observer, { path: '/mcp', headers: { ...json, 'mcp-session-id': 's-2' }, body: call }, { status: 200, headers: json, body: answer });
    });
    expect(text).not.toContain('key-0123456789');
    const [request, response] = entries.filter((entry) => entry.dir !== undefined);
    expect(request).toMatchObject({ redacted: ["$['params']['arguments']['apiKey']"], bytes: Buffer.byteLength(call) });
    expect(JSON.parse(String(frameText(request!)))).toMatchObject({ params: { arguments: { apiKey: '[redacted]', q: 'mcp' } } });
    expect(response).toMatchObject({ redacted: ["$['result']['content'][0]['text']"], bytes: Buffer.byteLength(answer) });
  });
});
