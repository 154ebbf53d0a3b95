// OAuth through the HTTP spy against a server that is its own authorization server and calls itself
// `localhost` (the spy's target says 127.0.0.1): the client sees the spy's URL wherever the server
// names its own, the server gets its own back as `resource`, rewritten bodies carry their new
// length, and the record keeps what the server said next to what the client got.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startSpy, type Spy } from '../helpers/http-spy.js';

function bodyOf(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => resolve(body));
  });
}

/** An MCP endpoint behind OAuth, its metadata, and an authorization server that reports what it received. */
function authServer(): Promise<{ server: Server; port: number }> {
  let self = '';
  const json = (value: unknown) => [200, { 'content-type': 'application/json' }, JSON.stringify(value)] as const;
  const routes: Record<string, (req: IncomingMessage, url: URL) => Promise<readonly [number, Record<string, string>, string]>> = {
    'GET /.well-known/oauth-protected-resource/mcp': async () => json({ resource: `${self}/mcp`, authorization_servers: [self], scopes_supported: ['mcp'] }),
    'GET /.well-known/oauth-authorization-server': async () =>
      json({ issuer: self, authorization_endpoint: `${self}/authorize`, token_endpoint: `${self}/token`, response_types_supported: ['code'] }),
    'POST /mcp': async () => [
      401,
      { 'www-authenticate': `Bearer error="invalid_token", resource_metadata="${self}/.well-known/oauth-protected-resource/mcp"` },
      '',
    ],
    'GET /authorize': async (_req, url) => [302, { location: `${self}/callback?code=c1`, 'x-seen-resource': url.searchParams.get('resource') ?? '' }, ''],
    'POST /token': async (req) => {
      const body = await bodyOf(req);
      return json({ resource: new URLSearchParams(body).get('resource'), contentLength: req.headers['content-length'], bytes: Buffer.byteLength(body), body });
    },
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const route = routes[`${req.method} ${url.pathname}`];
    const [status, headers, body] = route ? await route(req, url) : ([404, {}, ''] as const);
    res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(body) }).end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      self = `http://localhost:${port}`;
      resolve({ server, port });
    }),
  );
}

describe('OAuth through the spy', () => {
  let server: Server;
  let port: number;
  let spy: Spy;
  let spyOrigin: string;

  beforeAll(async () => {
    ({ server, port } = await authServer());
    spy = await startSpy(['--target', `http://127.0.0.1:${port}/mcp`]);
    spyOrigin = new URL(spy.url).origin;
  });
  afterAll(async () => {
    await spy?.dispose();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("names the spy in the challenge and the metadata, with the rewritten body's length", async () => {
    const challenge = await fetch(spy.url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", resource_metadata="${spyOrigin}/.well-known/oauth-protected-resource/mcp"`,
    );

    const resource = await fetch(`${spyOrigin}/.well-known/oauth-protected-resource/mcp`);
    const text = await resource.text();
    expect(JSON.parse(text)).toEqual({ resource: spy.url, authorization_servers: [spyOrigin], scopes_supported: ['mcp'] });
    expect(resource.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));

    const metadata = await (await fetch(`${spyOrigin}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({ issuer: spyOrigin, authorization_endpoint: `${spyOrigin}/authorize`, token_endpoint: `${spyOrigin}/token` });
  });

  it('gives the server its own URL as `resource` (query and form) and the client the spy in a redirect', async () => {
    await fetch(`${spyOrigin}/.well-known/oauth-protected-resource/mcp`);
    const authorize = await fetch(`${spyOrigin}/authorize?response_type=code&resource=${encodeURIComponent(spy.url)}&state=s%201`, { redirect: 'manual' });
    expect(authorize.status).toBe(302);
    expect(authorize.headers.get('x-seen-resource')).toBe(`http://localhost:${port}/mcp`);
    expect(authorize.headers.get('location')).toBe(`${spyOrigin}/callback?code=c1`);

    const form = `grant_type=authorization_code&code=c1&code_verifier=v_~.-&resource=${encodeURIComponent(spy.url)}`;
    const token = await (
      await fetch(`${spyOrigin}/token`, { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    ).json();
    expect(token.resource).toBe(`http://localhost:${port}/mcp`);
    expect(token.body).toBe(`grant_type=authorization_code&code=c1&code_verifier=v_~.-&resource=${encodeURIComponent(`http://localhost:${port}/mcp`)}`);
    expect(token.contentLength).toBe(String(token.bytes));
  });

  it("records each rewrite, and the server's own words", async () => {
    const server = `http://localhost:${port}`;
    const rewrites = await eventually(() => {
      const found = spy.entries().flatMap((entry) => (entry.kind === 'http' && Array.isArray(entry.rewrites) ? entry.rewrites : []));
      return found.some((rewrite) => rewrite.at === 'form') ? found : undefined;
    });
    expect(rewrites).toEqual(
      expect.arrayContaining([
        {
          at: 'www-authenticate',
          from: expect.stringContaining(`resource_metadata="${server}/`),
          to: expect.stringContaining(`resource_metadata="${spyOrigin}/`),
        },
        { at: 'metadata', from: `${server}/mcp`, to: spy.url },
        { at: 'metadata', from: `${server}/token`, to: `${spyOrigin}/token` },
        { at: 'query', from: spy.url, to: `${server}/mcp` },
        // The code in the redirect is a secret: masked in the record like everywhere else.
        { at: 'location', from: `${server}/callback?code=[redacted]`, to: `${spyOrigin}/callback?code=[redacted]` },
        { at: 'form', from: spy.url, to: `${server}/mcp` },
      ]),
    );
    expect(JSON.stringify(spy.entries())).toContain(`\\"resource\\":\\"${server}/mcp\\"`);
    // The log is written a moment after the record.
    await eventually(() => spy.log().includes("moved between the server's origin and the spy's"));
  });
});
