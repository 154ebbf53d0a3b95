import { describeChallenge, readChallenge } from './auth-challenge.js';
import { createBodyCollector } from './body-collector.js';
import type { AuthRewrite, EndpointRewrite, ExchangeFailure, ExchangeObserver, ExchangeStart } from './exchange-observer.js';
import type { EntryFields, ExchangeRecords, FrameEntry } from './exchange-records.js';
import type { ExchangeSessions, SessionChoice } from './exchange-sessions.js';
import { keepBodies, looksLikeJsonRpc, maskUrl, mediaTypeOf, readBody, type Learn, type OtherBody } from './http-bodies.js';
import { isNotable, summarizeExchange, type ExchangeFacts, type StatusTexts } from './http-summary.js';
import { mcpHeadersOf, requestMismatches, type HeaderBag } from './mcp-headers.js';
import { nowMs } from './now.js';
import type { FrameBytes } from './observe.js';
import type { HeaderRecord } from './redact-headers.js';
import { createSseFramer, sseFieldsOf, type SseEvent } from './sse-framer.js';

export interface ExchangeDeps {
  records: ExchangeRecords;
  sessions: ExchangeSessions;
  maxFrame: number;
  redact: (headers: HeaderBag) => HeaderRecord;
  /** The reason phrase of each status code (node:http's STATUS_CODES), for the `http` event's summary. */
  statusTexts: StatusTexts;
  /** The target's path: whatever is sent there is MCP, a frame even when it is garbage. */
  mcpPath: string;
  /** Hears each secret masked in a body that is not a frame; undefined with --no-redact (bodies as sent). */
  learn?: Learn;
}

function text(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Maps one HTTP exchange onto the record: the request body and each response body or SSE event
 * become frames of the exchange's session; the exchange itself becomes an `http` event when it says
 * something the frames do not (a status other than 200, a GET stream, a DELETE, a session assigned).
 *
 * Which bodies are frames: a request body when the exchange is MCP (sent to the target's path or a
 * legacy endpoint, or naming a session in its headers) or when it is JSON that looks like
 * JSON-RPC; a response body when its request was MCP or a frame, unless it answers with an auth
 * challenge. Other bodies (OAuth discovery, registration, tokens, forms, HTML) are described in the
 * `http` event, their secrets masked.
 */
export function observeExchange(start: ExchangeStart, deps: ExchangeDeps): ExchangeObserver {
  const { records, sessions } = deps;
  const facts: ExchangeFacts = { method: start.method, request: start.headers };
  let choice: SessionChoice | undefined = sessions.ofRequest(start.path, start.headers);
  // Not the MCP-Protocol-Version header: clients send it on their OAuth discovery requests too.
  const mcp = start.path.split('?')[0] === deps.mcpPath || (choice !== undefined && !choice.perExchange);
  const scrub = (text: string) => (deps.learn ? records.secrets.scrub(text) : text);
  let requestFrame: FrameBytes | undefined;
  let requestTaken = false;
  let requestIsFrame = mcp;
  let otherRequest: OtherBody | undefined;
  let requestEntries: FrameEntry[] = [];
  let responseIsFrame = true;
  const requestBody = createBodyCollector(deps.maxFrame);
  const responseBody = createBodyCollector(deps.maxFrame);
  let requestEndMs: number | undefined;
  // The http event is stamped with when its exchange was answered, not when the observer got to it.
  let responseMs: number | undefined;
  let requestRecorded = false;
  let httpRecorded = false;
  let framer: ReturnType<typeof createSseFramer> | undefined;
  let json = false;
  let rewrite: EndpointRewrite | undefined;
  // What the spy changed for authorization: the record keeps what each side said.
  const authRewrites: AuthRewrite[] = [];
  let ownsLegacySession = false;
  let challengeFields: EntryFields = {};
  // Copied for the record as they arrive: masking them teaches the secrets a body may echo.
  const requestHeaders = deps.redact(start.headers);
  let responseHeaders: HeaderRecord | undefined;

  const recordRequest = () => {
    if (requestRecorded || choice === undefined || requestEndMs === undefined) return;
    requestRecorded = true;
    const frame = requestFrame;
    if (!frame || !requestIsFrame) return;
    const { session } = choice;
    const version = text(start.headers, 'mcp-protocol-version');
    const { negotiated } = records.correlator(session);
    if (version) records.correlator(session).setRevision(version);
    const headers = mcpHeadersOf(start.headers);
    const fields = Object.keys(headers).length > 0 ? { headers } : undefined;
    const entries = records.frame(session, 'c2s', frame, requestEndMs, fields);
    requestEntries = entries;
    const first = entries[0];
    if (!first || frame.truncated) return;
    const mismatches = requestMismatches(start.headers, frame.bytes, version, negotiated);
    if (mismatches.length === 0) return;
    const related = { seq: first.seq, id: first.id ?? null, method: first.method ?? '' };
    records.event(session, 'note', { notes: ['header-mismatch'], text: `header and body disagree: ${mismatches.join('; ')}`, related });
  };

  /** The request body, once it is whole: a frame, or a body that is not MCP to describe. */
  const takeRequest = () => {
    if (requestTaken) return;
    requestTaken = true;
    requestFrame = requestBody.take();
    if (mcp || !requestFrame) return;
    const body = readBody(requestFrame.bytes, text(start.headers, 'content-type'));
    requestIsFrame = !requestFrame.truncated && looksLikeJsonRpc(body.json);
    if (!requestIsFrame) otherRequest = body;
  };

  /** A request refused with an auth challenge was never taken: it is not pending, and its retry is the real one. */
  const withdrawChallenged = () => {
    const challenge = readChallenge(facts.status, facts.response);
    if (!challenge || !choice) return undefined;
    const correlator = records.correlator(choice.session);
    const requests = requestEntries
      .filter((entry) => entry.kind === 'request' && entry.dir === 'c2s')
      .flatMap((entry) => (correlator.withdraw('c2s', entry.id ?? null) ? [{ seq: entry.seq, dir: 'c2s' as const, id: entry.id ?? null, method: entry.method ?? '' }] : []));
    facts.challenge = describeChallenge(challenge, requests.map((request) => `${request.method} #${JSON.stringify(request.id)}`));
    return requests.length > 0 ? { challenge, requests } : { challenge };
  };

  /** What the record keeps of bodies that are not frames: an excerpt, secrets masked, and what they are. */
  const describeBodies = (response: OtherBody | undefined): EntryFields => {
    const { fields, said } = keepBodies(response, otherRequest, { learn: deps.learn, scrub, sized: !mcp });
    // A challenge says what its body says (an OAuth error), and says it better.
    if (said !== '' && !facts.challenge) facts.bodies = said;
    return fields;
  };

  const recordHttp = (extra: EntryFields = {}, timeMs = responseMs) => {
    if (httpRecorded) return;
    httpRecorded = true;
    if (!isNotable(facts)) return;
    const headers: { request: HeaderRecord; response?: HeaderRecord } = { request: requestHeaders };
    if (responseHeaders) headers.response = responseHeaders;
    const path = deps.learn ? maskUrl(start.path, deps.learn) : start.path;
    const fields: EntryFields = { httpMethod: start.method, path, headers, summary: summarizeExchange(facts, deps.statusTexts), ...extra };
    // What the spy moved between origins, masked like the path (a redirect may carry a code).
    const mask = (url: string) => (deps.learn ? maskUrl(url, deps.learn) : url);
    if (authRewrites.length > 0) fields.rewrites = authRewrites.map((rewrite) => ({ ...rewrite, from: mask(rewrite.from), to: mask(rewrite.to) }));
    if (facts.status !== undefined) fields.status = facts.status;
    if (facts.reason !== undefined) fields.reason = facts.reason;
    records.event(choice?.session, 'http', fields, timeMs);
  };

  const finish = (timeMs: number) => {
    if (!choice) return;
    // A legacy session lives as long as its event stream.
    const ended = ownsLegacySession
      || (start.method === 'DELETE' && facts.status !== undefined && facts.status < 300)
      || (facts.status === 404 && text(start.headers, 'mcp-session-id') !== undefined);
    if (choice.perExchange || ended) sessions.end(choice.session, timeMs);
  };

  const onEvent = (event: SseEvent, timeMs: number) => {
    if (event.event === 'endpoint') {
      if (!choice) {
        choice = sessions.learnEndpoint(event.data, start.path);
        ownsLegacySession = true;
      }
      facts.endpoint = { from: event.data, to: rewrite?.to };
      const fields: EntryFields = { endpoint: event.data };
      if (rewrite) fields.endpointRewritten = rewrite.to;
      httpRecorded = false;
      recordHttp(fields, timeMs);
      facts.endpoint = undefined;
      return;
    }
    choice ??= sessions.perExchange();
    recordHttp();
    const { session } = choice;
    const fields = sseFieldsOf(event);
    if (event.truncated) {
      records.frame(session, 's2c', { bytes: Buffer.from(event.data, 'utf8'), truncated: true }, timeMs, fields);
      return;
    }
    if (event.data === '') {
      // A priming event (an id, no data) or a bare retry: the client's resumption point.
      if (fields) records.event(session, 'http', { httpMethod: start.method, path: start.path, summary: event.id !== undefined ? `SSE priming event, id ${event.id}` : 'SSE event without data', ...fields }, timeMs);
      return;
    }
    records.frame(session, 's2c', { bytes: Buffer.from(event.data, 'utf8') }, timeMs, fields);
  };

  return {
    requestChunk: (chunk) => requestBody.push(chunk),
    requestEnd(timeMs = nowMs()) {
      requestEndMs = timeMs;
      takeRequest();
      recordRequest();
    },
    response(status: number, headers: HeaderBag, timeMs = nowMs()) {
      responseMs = timeMs;
      facts.status = status;
      facts.response = headers;
      responseHeaders = deps.redact(headers);
      const type = text(headers, 'content-type') ?? '';
      json = type.includes('json');
      responseIsFrame = (mcp || requestIsFrame) && readChallenge(status, headers) === undefined;
      // JSON-RPC sent elsewhere reads like MCP; anything else is described by what it carries.
      if (!mcp && !requestIsFrame) facts.mediaType = mediaTypeOf(type);
      const location = text(headers, 'location');
      if (status >= 300 && status < 400 && location !== undefined) facts.redirect = deps.learn ? maskUrl(location, deps.learn) : location;
      if (responseIsFrame && type.includes('text/event-stream')) {
        facts.stream = true;
        framer = createSseFramer(deps.maxFrame);
      }
      choice ??= sessions.ofResponse(headers);
      // A stream without a session may be legacy HTTP+SSE: its first event, endpoint, names the session.
      if (!choice && !(framer && start.method === 'GET')) choice = sessions.perExchange();
      recordRequest();
      const challenged = withdrawChallenged();
      if (challenged) challengeFields = challenged;
      if (framer && choice) recordHttp();
    },
    responseChunk(chunk, timeMs = nowMs()) {
      if (framer) for (const event of framer.push(chunk)) onEvent(event, timeMs);
      else responseBody.push(chunk);
    },
    responseEnd(timeMs = nowMs()) {
      if (framer) for (const event of framer.end()) onEvent(event, timeMs);
      choice ??= sessions.perExchange();
      const frame = responseBody.take();
      const framed = frame !== undefined && json && responseIsFrame;
      const response = frame && !framed ? readBody(frame.bytes, text(facts.response ?? {}, 'content-type')) : undefined;
      recordHttp({ ...describeBodies(response), ...challengeFields });
      if (framed) records.frame(choice.session, 's2c', frame, timeMs);
      finish(timeMs);
    },
    endpointRewritten(value) {
      rewrite = value;
    },
    authRewritten(value) {
      authRewrites.push(value);
      facts.rewrites = authRewrites.length;
    },
    failed(failure: ExchangeFailure, timeMs = nowMs()) {
      choice ??= sessions.perExchange();
      requestEndMs ??= timeMs;
      takeRequest();
      recordRequest();
      facts.reason = failure.message;
      if (failure.answered) facts.status = failure.answered.status;
      responseMs = timeMs;
      httpRecorded = false;
      recordHttp(describeBodies(undefined));
      // A 408 has no body: only a body is a frame.
      if (failure.answered && failure.answered.body.length > 0) records.frame(choice.session, 's2c', { bytes: failure.answered.body }, timeMs, { origin: 'spy' });
      finish(timeMs);
    },
  };
}
