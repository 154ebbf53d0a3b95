import type { AuthRewrite, ExchangeStart } from './exchange-tap.js';
import type { EntryFields } from './exchange-records.js';
import { maskUrl, type Learn } from './http-bodies.js';
import { summarizeExchange, type ExchangeFacts, type StatusTexts } from './http-summary.js';
import type { HeaderRecord, HeaderRedactor } from './redact-headers.js';

/** What an `http` event needs beside the exchange: how to mask, and the status texts. */
export interface HttpEventDeps {
  /** Copies headers into the record, secrets masked; learns those secrets as the headers arrive. */
  redact: HeaderRedactor;
  /** Hears each secret masked in a body that is not a frame; undefined with --no-redact (bodies as sent). */
  learn?: Learn;
  /** The reason phrase of each status code (node:http's STATUS_CODES), for the `http` event's summary. */
  statusTexts: StatusTexts;
}

/**
 * The fields of an exchange's `http` event, in the record's order: method, path and headers with
 * their secrets masked, the summary, `extra`, what the spy moved between origins, status and reason.
 */
export function httpEventFields(
  start: ExchangeStart,
  facts: ExchangeFacts,
  deps: HttpEventDeps,
  extra: EntryFields,
  authRewrites: AuthRewrite[] | undefined,
): EntryFields {
  const headers: { request: HeaderRecord; response?: HeaderRecord } = { request: deps.redact.copy(start.headers) };
  if (facts.response) headers.response = deps.redact.copy(facts.response);
  // What the spy moved between origins, masked like the path (a redirect may carry a code).
  const mask = (url: string) => (deps.learn ? maskUrl(url, deps.learn) : url);
  const fields: EntryFields = { httpMethod: start.method, path: mask(start.path), headers, summary: summarizeExchange(facts, deps.statusTexts), ...extra };
  if (authRewrites) fields.rewrites = authRewrites.map((rewrite) => ({ ...rewrite, from: mask(rewrite.from), to: mask(rewrite.to) }));
  if (facts.status !== undefined) fields.status = facts.status;
  if (facts.reason !== undefined) fields.reason = facts.reason;
  return fields;
}
