import { isObject } from '../../protocol/jsonrpc.js';

/**
 * Cross-app access (XAA, SEP-990): the client trades an ID token for an ID-JAG at its identity
 * provider (an RFC 8693 token exchange naming the MCP server's `resource` and its authorization
 * server as `audience`), then trades the ID-JAG for an access token at that authorization server
 * (an RFC 7523 jwt-bearer grant). The ID-JAG is signed by the identity provider.
 */
const tokenExchange = 'urn:ietf:params:oauth:grant-type:token-exchange';
const jwtBearer = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const idJagType = 'urn:ietf:params:oauth:token-type:id-jag';
const idJagHeader = 'oauth-id-jag+jwt';

/** One step of cross-app access seen in a token request: what the ID-JAG is (to be) issued for. */
export interface CrossAppGrant {
  step: 'token-exchange' | 'jwt-bearer';
  resource?: string;
  audience?: string;
}

const text = (value: unknown) => (typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined);

/** One part of a JWT (0: header, 1: claims) as an object, read without checking the signature. Never throws. */
export function jwtPart(token: string, part: 0 | 1): Record<string, unknown> | undefined {
  const segment = token.split('.')[part];
  if (!segment) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The cross-app access step a token request's form is, if it is one. */
export function crossAppGrantOf(form: URLSearchParams | undefined): CrossAppGrant | undefined {
  const grant = form?.get('grant_type');
  if (!form || (grant !== tokenExchange && grant !== jwtBearer)) return undefined;
  if (grant === tokenExchange) {
    if (form.get('requested_token_type') !== idJagType) return undefined;
    return { step: 'token-exchange', resource: form.get('resource') ?? undefined, audience: form.get('audience') ?? undefined };
  }
  const assertion = form.get('assertion') ?? '';
  const claims = jwtPart(assertion, 1);
  if (!claims || (jwtPart(assertion, 0)?.typ !== idJagHeader && typeof claims.resource !== 'string')) return undefined;
  return { step: 'jwt-bearer', resource: text(claims.resource), audience: text(claims.aud) };
}

/** A phrase for the exchange's summary: which step, for what. */
export function describeCrossAppGrant(grant: CrossAppGrant): string {
  const what = grant.step === 'token-exchange' ? 'ID-JAG requested' : 'ID-JAG presented';
  return `cross-app access: ${what} for resource ${grant.resource ?? '(none)'}, audience ${grant.audience ?? '(none)'}`;
}

const onOrigin = (url: string | undefined, origin: string) => url !== undefined && URL.canParse(url) && new URL(url).origin === origin;

/**
 * Why the authorization server refused an ID-JAG, in one line, when the spy is the likely cause:
 * the client connected to the spy, so the ID-JAG its identity provider signed names the spy's URL
 * (as resource or audience) where the server expects its own, and a signed assertion cannot be
 * rewritten. Undefined when the grant was not refused or names no URL of the spy.
 */
export function crossAppRefusal(grant: CrossAppGrant, status: number, response: unknown, spyOrigin: string): string | undefined {
  if (grant.step !== 'jwt-bearer' || status < 400) return undefined;
  const named = (['resource', 'audience'] as const).filter((name) => onOrigin(grant[name], spyOrigin));
  if (named.length === 0) return undefined;
  const error = isObject(response) && typeof response.error === 'string' ? response.error : `HTTP ${status}`;
  const description = isObject(response) && typeof response.error_description === 'string' ? `: ${response.error_description}` : '';
  const urls = named.map((name) => `${name} ${grant[name]}`).join(', ');
  return `cross-app access (XAA) refused by the authorization server (${error}${description}): the identity provider signed the ID-JAG for ${urls}, the spy's URL the client connected to, not the server's own; the spy cannot rewrite a signed assertion, so connect the client to the server directly for cross-app access`;
}

/**
 * A token request's part in cross-app access, for the exchange's summary; a refusal the spy caused
 * is said through `warn` too. `host` is the Host the client sent: the spy's address as it knows it.
 */
export function crossAppStep(
  form: URLSearchParams | undefined,
  status: number | undefined,
  response: unknown,
  host: string | undefined,
  warn?: (message: string) => void,
): string | undefined {
  const grant = crossAppGrantOf(form);
  if (!grant) return undefined;
  const refusal = status === undefined || host === undefined ? undefined : crossAppRefusal(grant, status, response, `http://${host}`);
  if (refusal) warn?.(refusal);
  return describeCrossAppGrant(grant);
}
