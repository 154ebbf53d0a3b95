import { isObject } from '../../protocol/jsonrpc.js';
import { tableOf } from '../../protocol/own-table.js';
import { redactedValue } from '../redact/redact-frame.js';
import { parseCut } from '../../protocol/depth.js';
import { plural } from '../../protocol/plural.js';

/**
 * Members, form fields and query parameters whose values are secrets in OAuth exchanges (token,
 * registration, the authorization redirect). Masked in the record unless --no-redact.
 */
const secretNames = new Set([
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
  'code',
  'code_verifier',
  'password',
  'registration_access_token',
  'assertion',
  'client_assertion',
  'subject_token',
  'actor_token',
]);

/** How much of a body that is not a frame the record keeps. */
const excerptLength = 200;

/** A body that is not a frame, read as far as its type allows. */
export interface OtherBody {
  /** The media type, without parameters (`application/json`), or '' when none was sent. */
  type: string;
  size: number;
  text: string;
  json?: unknown;
  form?: URLSearchParams;
}

/** Called with each secret masked, so the record masks it wherever it turns up later. */
export type Learn = (secret: string) => void;

export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Reads a body: JSON when it parses as JSON, fields when it is a form post. Never throws. */
export function readBody(bytes: Buffer, contentType: string | undefined): OtherBody {
  const type = mediaTypeOf(contentType);
  const text = bytes.toString('utf8');
  const body: OtherBody = { type, size: bytes.length, text };
  if (type === 'application/x-www-form-urlencoded') body.form = new URLSearchParams(text);
  else if (text.trimStart().startsWith('{') || text.trimStart().startsWith('[')) {
    try {
      body.json = parseCut(text).value;
    } catch {
      // Not JSON after all: the text is what there is.
    }
  }
  return body;
}

/** Whether parsed JSON is meant as JSON-RPC: an object with `jsonrpc`, or a batch of them. */
export function looksLikeJsonRpc(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every((member) => isObject(member) && 'jsonrpc' in member);
  return isObject(value) && 'jsonrpc' in value;
}

/** A copy of JSON with the values of secret members masked at any depth. */
function maskJson(value: unknown, learn: Learn): unknown {
  if (Array.isArray(value)) return value.map((child) => maskJson(child, learn));
  if (!isObject(value)) return value;
  return tableOf(
    Object.entries(value).map(([key, child]) => {
      if (!secretNames.has(key) || child === null || child === undefined) return [key, maskJson(child, learn)] as const;
      if (typeof child === 'string') learn(child);
      return [key, redactedValue] as const;
    }),
  );
}

/** The form (or query) with the values of secret fields masked. */
function maskForm(form: URLSearchParams, learn: Learn): URLSearchParams {
  const masked = new URLSearchParams();
  for (const [key, value] of form) {
    if (secretNames.has(key)) learn(value);
    masked.append(key, secretNames.has(key) ? redactedValue : value);
  }
  return masked;
}

/** `code=...` and the like inside text: a redirect page or a link that carries a secret in its query. */
const secretInQuery = new RegExp(`([?&](?:${[...secretNames].join('|')})=)([^&#\\s"'<>]+)`, 'g');

/** A URL or path with the secret parameters of its query masked (an authorization code in a redirect). */
export function maskUrl(url: string, learn: Learn): string {
  const at = url.indexOf('?');
  if (at === -1) return url;
  const query = new URLSearchParams(url.slice(at + 1));
  if (![...query.keys()].some((key) => secretNames.has(key))) return url;
  return `${url.slice(0, at)}?${maskForm(query, learn).toString().replaceAll('%5Bredacted%5D', redactedValue)}`;
}

/**
 * The start of a body as the record keeps it: secrets masked (JSON and forms re-serialized, so
 * spacing may differ from the wire; other text with the secrets known so far masked).
 */
export function bodyExcerpt(body: OtherBody, learn: Learn | undefined, scrub: (text: string) => string): string {
  if (!learn) return body.text.slice(0, excerptLength);
  let text = body.text.replace(secretInQuery, (_, name: string, value: string) => {
    learn(decodeURIComponent(value));
    return `${name}${redactedValue}`;
  });
  if (body.form) text = maskForm(body.form, learn).toString().replaceAll('%5Bredacted%5D', redactedValue);
  else if (body.json !== undefined) text = JSON.stringify(maskJson(body.json, learn));
  // Then what is secret anywhere: a redacted header's value echoed in a body, a token met before.
  return scrub(text).slice(0, excerptLength);
}

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** What an OAuth body is, by its members, first match wins. Secrets are never part of a description. */
const describers: ((json: Record<string, unknown>) => string | undefined)[] = [
  (j) =>
    str(j.resource) !== undefined && Array.isArray(j.authorization_servers)
      ? `protected-resource metadata, resource ${str(j.resource)}, ${plural(j.authorization_servers.length, 'authorization server')}`
      : undefined,
  (j) =>
    str(j.issuer) !== undefined && (j.token_endpoint !== undefined || j.authorization_endpoint !== undefined)
      ? `authorization-server metadata, issuer ${str(j.issuer)}`
      : undefined,
  (j) => {
    if (j.access_token === undefined) return undefined;
    const parts = [
      'token issued',
      str(j.token_type),
      typeof j.expires_in === 'number' ? `expires in ${j.expires_in}s` : undefined,
      str(j.scope) ? `scope ${str(j.scope)}` : undefined,
      j.refresh_token !== undefined ? 'with a refresh token' : undefined,
    ];
    return parts.filter((part) => part !== undefined && part !== '').join(', ');
  },
  (j) => (str(j.client_id) !== undefined && Array.isArray(j.redirect_uris) ? `client registered, client_id ${str(j.client_id)}` : undefined),
  (j) => (Array.isArray(j.redirect_uris) ? `client registration${str(j.client_name) ? ` of ${str(j.client_name)}` : ''}` : undefined),
  (j) => (str(j.error) !== undefined ? `OAuth error ${str(j.error)}${str(j.error_description) ? `: ${str(j.error_description)}` : ''}` : undefined),
  (j) => (str(j.grant_type) !== undefined ? `${str(j.grant_type)} grant` : undefined),
];

/** One phrase for a body that is not a frame: what OAuth body it is, else its size (or '' when `sized` is false). */
export function describeBody(body: OtherBody, sized: boolean): string {
  const fields = body.form ? Object.fromEntries(body.form) : body.json;
  if (isObject(fields)) {
    for (const describe of describers) {
      const said = describe(fields);
      if (said !== undefined) return said;
    }
  }
  return sized ? plural(body.size, 'byte') : '';
}

/**
 * What the record keeps of the bodies of an exchange that are not frames: their start, secrets masked
 * (`body`, `requestBody`), the response's `contentType`, and what they are in words.
 */
export function keepBodies(
  response: OtherBody | undefined,
  request: OtherBody | undefined,
  how: { learn: Learn | undefined; scrub: (text: string) => string; sized: boolean },
) {
  const fields: { body?: string; contentType?: string; requestBody?: string } = {};
  const described: string[] = [];
  if (response) {
    fields.body = bodyExcerpt(response, how.learn, how.scrub);
    if (response.type !== '') fields.contentType = response.type;
    described.push(describeBody(response, how.sized));
  }
  if (request) {
    fields.requestBody = bodyExcerpt(request, how.learn, how.scrub);
    described.push(describeBody(request, false));
  }
  return { fields, said: described.filter((phrase) => phrase !== '').join('; ') };
}
