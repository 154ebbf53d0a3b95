import { describe, expect, it } from 'vitest';
import { crossAppGrantOf, crossAppRefusal } from '../../src/wire/http/cross-app-access.js';

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (header: object, claims: object) => `${part(header)}.${part(claims)}.signature`;
const idJag = jwt({ alg: 'ES256', typ: 'oauth-id-jag+jwt' }, { resource: 'http://127.0.0.1:7000/mcp', aud: 'http://127.0.0.1:7000' });
const form = (fields: Record<string, string>) => new URLSearchParams(fields);
const bearer = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

describe('crossAppGrantOf', () => {
  it.each([
    [
      'a jwt-bearer grant of an ID-JAG',
      form({ grant_type: bearer, assertion: idJag }),
      { step: 'jwt-bearer', resource: 'http://127.0.0.1:7000/mcp', audience: 'http://127.0.0.1:7000' },
    ],
    [
      'a token exchange asking for an ID-JAG',
      form({
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
        resource: 'http://s/mcp',
        audience: 'http://as',
      }),
      { step: 'token-exchange', resource: 'http://s/mcp', audience: 'http://as' },
    ],
    ['a jwt-bearer grant of another JWT', form({ grant_type: bearer, assertion: jwt({ alg: 'RS256' }, { sub: 'x' }) }), undefined],
    ['an assertion that is no JWT', form({ grant_type: bearer, assertion: 'not.a.jwt' }), undefined],
    ['an authorization code grant', form({ grant_type: 'authorization_code', code: 'c' }), undefined],
  ])('%s', (_, fields, grant) => {
    expect(crossAppGrantOf(fields)).toEqual(grant);
  });
});

describe('crossAppRefusal', () => {
  const grant = crossAppGrantOf(form({ grant_type: bearer, assertion: idJag }))!;

  it('explains a refusal of an ID-JAG that names the spy', () => {
    expect(crossAppRefusal(grant, 400, { error: 'invalid_grant' }, 'http://127.0.0.1:7000')).toMatch(
      /^cross-app access \(XAA\) refused by the authorization server \(invalid_grant\): the identity provider signed the ID-JAG for resource http:\/\/127\.0\.0\.1:7000\/mcp, audience http:\/\/127\.0\.0\.1:7000, the spy's URL/,
    );
  });

  it('says nothing of a grant accepted, or of one that names another URL', () => {
    expect(crossAppRefusal(grant, 200, {}, 'http://127.0.0.1:7000')).toBeUndefined();
    expect(crossAppRefusal(grant, 400, { error: 'invalid_grant' }, 'http://127.0.0.1:7001')).toBeUndefined();
  });
});
