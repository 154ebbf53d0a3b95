import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startSpy, type Spy } from '../helpers/http-spy.js';
import { fixture, node, readEntries, runBinSync, type TestEntry } from '../helpers/spy.js';

/** A client that keeps what the OAuth flow gives it in memory and leaves the redirect to the test. */
class MemoryAuth implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  readonly redirectUrl = 'http://127.0.0.1:9/callback';
  get clientMetadata() {
    return {
      client_name: 'mcp-spy-test',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    };
  }
  clientInformation = () => this.info;
  saveClientInformation = (info: OAuthClientInformationMixed) => void (this.info = info);
  tokens = () => this.saved;
  saveTokens = (tokens: OAuthTokens) => void (this.saved = tokens);
  redirectToAuthorization = (url: URL) => void (this.authorizationUrl = url);
  saveCodeVerifier = (verifier: string) => void (this.verifier = verifier);
  codeVerifier = () => this.verifier;
}

describe('an OAuth-protected server through the HTTP spy', () => {
  let spy: Spy;
  let spyOrigin: string;
  const auth = new MemoryAuth();
  let code = '';
  let echoed: unknown;
  let entries: TestEntry[];
  let recordText: string;
  let logText: string;

  beforeAll(async () => {
    const [serverPort, spyPort] = [await freePort(), await freePort()];
    spyOrigin = `http://127.0.0.1:${spyPort}`;
    spy = await startSpy(
      ['--target', `http://127.0.0.1:${serverPort}/mcp`, '--listen', `127.0.0.1:${spyPort}`],
      [node, fixture('http', 'oauth-server.js'), '--port', String(serverPort), '--public-url', spyOrigin],
      { FORCE_COLOR: '0' },
    );
    // The first connect meets the 401, discovers, registers and sends the user to authorize.
    const first = new StreamableHTTPClientTransport(new URL(spy.url), { authProvider: auth });
    await expect(new Client({ name: 'oauth', version: '1.0.0' }).connect(first)).rejects.toThrow(UnauthorizedError);
    // The user agent's part: the demo server approves at once and redirects with a code.
    const redirect = await fetch(auth.authorizationUrl!, { redirect: 'manual' });
    code = new URL(redirect.headers.get('location')!).searchParams.get('code')!;
    await first.finishAuth(code);
    const client = new Client({ name: 'oauth', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(spy.url), { authProvider: auth });
    await client.connect(transport);
    echoed = await client.callTool({ name: 'echo', arguments: { message: 'authorized' } });
    await transport.terminateSession();
    await client.close();
    await spy.stop();
    entries = readEntries(join(spy.dir, 'wire.jsonl'));
    recordText = readFileSync(join(spy.dir, 'wire.jsonl'), 'utf8');
    logText = readFileSync(join(spy.dir, 'wire.log'), 'utf8');
  });
  afterAll(async () => {
    await spy?.stop();
    if (spy) rmSync(spy.dir, { recursive: true, force: true });
  });

  it('got through: the client was served with the token it was given', () => {
    expect(echoed).toMatchObject({ content: [{ type: 'text', text: 'authorized' }] });
    expect(auth.saved?.access_token).toMatch(/^[\w-]{16,}$/);
  });

  it('records the OAuth endpoints as described http events, not as invalid frames', () => {
    expect(entries.filter((entry) => entry.kind === 'invalid')).toEqual([]);
    expect(entries.filter((entry) => entry.dir !== undefined && !String(entry.path ?? '/mcp').startsWith('/mcp'))).toEqual([]);
    const lines = [
      `** http        GET /.well-known/oauth-protected-resource/mcp 200 application/json: protected-resource metadata, resource ${spyOrigin}/mcp, 1 authorization server`,
      `** http        GET /.well-known/oauth-authorization-server 200 application/json: authorization-server metadata, issuer ${spyOrigin}/`,
      '** http        POST /register 201 application/json: client registered, client_id ',
      '** http        POST /token 200 application/json: token issued, bearer, expires in 3600s',
    ];
    for (const line of lines) expect(logText).toContain(line);
    expect(logText).toMatch(/POST \/token 200 application\/json: token issued.*; authorization_code grant/);
    const token = entries.find((entry) => entry.kind === 'http' && entry.path === '/token')!;
    expect(token).toMatchObject({ status: 200, contentType: 'application/json' });
    expect(token.requestBody).toMatch(/grant_type=authorization_code&code=\[redacted\]/);
    expect(token.body).toContain('"access_token":"[redacted]"');
    const authorize = entries.find((entry) => entry.kind === 'http' && String(entry.path).startsWith('/authorize'))!;
    // The client's `resource` in the query goes to the server as the server names itself: a rewrite.
    expect(authorize.summary).toMatch(
      /^text\/plain: \d+ bytes; redirect to http:\/\/127\.0\.0\.1:9\/callback\?code=\[redacted\]; 1 URL moved between the server's origin and the spy's \(rewrites\)$/,
    );
  });

  it('records the 401 to initialize as an auth challenge, not as an unanswered request', () => {
    const challenge = entries.find((entry) => entry.kind === 'http' && entry.status === 401)!;
    expect(challenge).toMatchObject({
      httpMethod: 'POST',
      path: '/mcp',
      challenge: { scheme: 'Bearer', resource_metadata: `${spyOrigin}/.well-known/oauth-protected-resource/mcp` },
      requests: [{ dir: 'c2s', method: 'initialize' }],
    });
    expect(challenge.summary).toMatch(/^Unauthorized; auth challenge: Bearer, resource_metadata \S+, error invalid_token/);
    expect(challenge.summary).toContain('initialize #0 to be sent again once authorized');
    expect(entries.filter((entry) => entry.kind === 'unanswered')).toEqual([]);
    const initialized = entries.filter((entry) => entry.method === 'initialize' && entry.kind === 'response');
    expect(initialized).toHaveLength(1);
  });

  it('passes check and stats finds nothing unanswered', () => {
    const record = join(spy.dir, 'wire.jsonl');
    const check = runBinSync(['check', record]);
    expect(check.text).toContain(': clean (0 errors, 0 warnings');
    expect(check.code).toBe(0);
    const stats = JSON.parse(runBinSync(['stats', record, '--format', 'json']).text) as { unanswered: unknown[] };
    expect(stats.unanswered).toEqual([]);
  });

  it('keeps every secret out of the record and the log', () => {
    const secrets = { access_token: auth.saved!.access_token, client_secret: auth.info!.client_secret!, code, code_verifier: auth.verifier };
    for (const [name, value] of Object.entries(secrets)) {
      expect(value, name).toMatch(/^.{16,}$/);
      expect(recordText.includes(value), `${name} in wire.jsonl`).toBe(false);
      expect(logText.includes(value), `${name} in wire.log`).toBe(false);
    }
  });
});
