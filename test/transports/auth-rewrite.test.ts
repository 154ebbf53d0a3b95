import { describe, expect, it } from 'vitest';
import {
  challengedMetadataPath,
  isDiscoveryPath,
  originsOf,
  rewriteMetadata,
  rewriteRequestPath,
  rewriteResourceParams,
  rewriteResponseHeaders,
  type AuthRewrite,
} from '../../src/transports/http/auth-rewrite.js';
import { refusalOf, hostPolicy } from '../../src/transports/http/host-guard.js';

const origins = originsOf(new URL('http://localhost:3000/mcp'), '127.0.0.1:7000');

function collect<T>(run: (note: (rewrite: AuthRewrite) => void) => T): { out: T; rewrites: AuthRewrite[] } {
  const rewrites: AuthRewrite[] = [];
  return { out: run((rewrite) => rewrites.push(rewrite)), rewrites };
}

describe('auth rewrites', () => {
  it('gives the client the spy for a URL of the target under any of its loopback names, and nothing else', () => {
    const body = Buffer.from(
      JSON.stringify({
        resource: 'http://127.0.0.1:3000/mcp',
        authorization_servers: ['http://localhost:3000', 'https://auth.example.com'],
        scopes_supported: ['http://localhost:3000x'],
        nested: { jwks_uri: 'http://[::1]:3000/jwks?x=1' },
        other_port: 'http://localhost:3001/mcp',
      }),
    );
    const { out, rewrites } = collect((note) => rewriteMetadata(body, origins, note));
    expect(JSON.parse(out!.toString())).toEqual({
      resource: 'http://127.0.0.1:7000/mcp',
      authorization_servers: ['http://127.0.0.1:7000', 'https://auth.example.com'],
      scopes_supported: ['http://localhost:3000x'],
      nested: { jwks_uri: 'http://127.0.0.1:7000/jwks?x=1' },
      other_port: 'http://localhost:3001/mcp',
    });
    expect(rewrites.map((rewrite) => rewrite.from)).toEqual(['http://127.0.0.1:3000/mcp', 'http://localhost:3000', 'http://[::1]:3000/jwks?x=1']);
  });

  it('leaves a document with nothing to move, or not JSON, alone', () => {
    expect(rewriteMetadata(Buffer.from('{"issuer":"https://auth.example.com"}'), origins, () => {})).toBeUndefined();
    expect(rewriteMetadata(Buffer.from('not json'), origins, () => {})).toBeUndefined();
  });

  it("moves the challenge's and the redirect's URLs, keeping the rest of the header", () => {
    const raw = [
      'WWW-Authenticate',
      'Bearer error="invalid_token", resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource/mcp"',
      'Location',
      'http://localhost:3000/callback?code=1',
      'X-Other',
      'http://localhost:3000/',
    ];
    const { out, rewrites } = collect((note) => rewriteResponseHeaders(raw, origins, note));
    expect(out).toEqual([
      'WWW-Authenticate',
      'Bearer error="invalid_token", resource_metadata="http://127.0.0.1:7000/.well-known/oauth-protected-resource/mcp"',
      'Location',
      'http://127.0.0.1:7000/callback?code=1',
      'X-Other',
      'http://localhost:3000/',
    ]);
    expect(rewrites.map((rewrite) => rewrite.at)).toEqual(['www-authenticate', 'location']);
  });

  it('gives the server its own URL as `resource`, every other byte of the form as sent', () => {
    const form = 'grant_type=authorization_code&code=a%2Bb+c&resource=http%3A%2F%2F127.0.0.1%3A7000%2Fmcp&redirect_uri=http%3A%2F%2F127.0.0.1%3A7000%2Fcb';
    const { out, rewrites } = collect((note) => rewriteResourceParams(form, origins, 'form', note));
    expect(out).toBe('grant_type=authorization_code&code=a%2Bb+c&resource=http%3A%2F%2Flocalhost%3A3000%2Fmcp&redirect_uri=http%3A%2F%2F127.0.0.1%3A7000%2Fcb');
    expect(rewrites).toEqual([{ at: 'form', from: 'http://127.0.0.1:7000/mcp', to: 'http://localhost:3000/mcp' }]);
    expect(rewriteRequestPath('/authorize?resource=http%3A%2F%2F127.0.0.1%3A7000%2Fmcp&state=%E0', origins, () => {})).toBe(
      '/authorize?resource=http%3A%2F%2Flocalhost%3A3000%2Fmcp&state=%E0',
    );
    expect(rewriteResourceParams('resource=%E0%A4%A', origins, 'query', () => {})).toBe('resource=%E0%A4%A');
  });

  it('knows the discovery documents, and the one a challenge names', () => {
    expect(
      ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server', '/tenant/.well-known/openid-configuration'].every(
        isDiscoveryPath,
      ),
    ).toBe(true);
    expect(isDiscoveryPath('/mcp')).toBe(false);
    expect(challengedMetadataPath('Bearer resource_metadata="http://localhost:3000/custom/meta.json?v=1"', origins)).toBe('/custom/meta.json?v=1');
    expect(challengedMetadataPath('Bearer resource_metadata="https://elsewhere.example/meta.json"', origins)).toBeUndefined();
  });
});

describe('host guard', () => {
  const policy = hostPolicy({ host: '127.0.0.1', port: 7000 }, ['spy.example.test'], ['https://app.example.test']);
  const table: [Record<string, string>, boolean][] = [
    [{ host: '127.0.0.1:7000' }, true],
    [{ host: 'LOCALHOST:7000' }, true],
    [{ host: '[::1]:7000' }, true],
    [{ host: 'localhost:7001' }, false],
    [{ host: '127.0.0.1' }, true],
    [{ host: 'evil.example.com' }, false],
    [{ host: 'evil.example.com:7000' }, false],
    [{ host: 'spy.example.test:8443' }, true],
    [{ host: 'spy.example.test' }, true],
    [{ host: 'not a host:7000' }, false],
    [{}, false],
    [{ host: '127.0.0.1:7000', origin: 'http://localhost:5173' }, true],
    [{ host: '127.0.0.1:7000', origin: 'https://app.example.test' }, true],
    [{ host: '127.0.0.1:7000', origin: 'https://evil.example.com' }, false],
    [{ host: '127.0.0.1:7000', origin: 'null' }, false],
  ];
  it.each(table)('%o forwarded: %s', (headers, forwarded) => {
    expect(refusalOf(headers, policy) === undefined).toBe(forwarded);
  });
});
