import type { IncomingHttpHeaders } from 'node:http';
import { isStatelessRevision } from '../protocol/revisions.js';
import type { RecordEntry } from '../record/schema.js';
import type { AuthRewrite, EndpointRewrite, ExchangeFailure, ExchangeObserver, ExchangeStart } from '../transports/http-proxy.js';
import { headerMismatches, mcpHeadersOf, type HeaderBag } from '../wire/mcp-headers.js';
import { createSseFramer, type SseEvent } from '../wire/sse-framer.js';
import { createBodyCollector } from './body-collector.js';
import type { HttpSessions, SessionChoice } from './http-sessions.js';
import { isNotable, summarizeExchange, type ExchangeFacts } from './http-summary.js';
import { nowMs, type Recorder } from './recorder.js';
import type { HeaderRecord } from './redact-headers.js';

export interface ExchangeDeps {
  recorder: Recorder;
  sessions: HttpSessions;
  maxFrame: number;
  redact: (headers: HeaderBag) => HeaderRecord;
}

function text(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The SSE facts a frame carries: its event id, its type when not the default, a retry. */
function sseFields(event: SseEvent): Partial<RecordEntry> | undefined {
  const sse: Record<string, string | number> = {};
  if (event.id !== undefined) sse.id = event.id;
  if (event.event !== undefined && event.event !== 'message') sse.event = event.event;
  if (event.retry !== undefined) sse.retry = event.retry;
  return Object.keys(sse).length > 0 ? { sse } : undefined;
}

/**
 * Maps one HTTP exchange onto the record: the request body and each response body or SSE event
 * become frames of the exchange's session; the exchange itself becomes an `http` event when it says
 * something the frames do not (a status other than 200, a GET stream, a DELETE, a session assigned).
 */
export function observeExchange(start: ExchangeStart, deps: ExchangeDeps): ExchangeObserver {
  const { recorder, sessions } = deps;
  const facts: ExchangeFacts = { method: start.method, request: start.headers };
  let choice: SessionChoice | undefined = sessions.ofRequest(start.path, start.headers);
  const requestBody = createBodyCollector(deps.maxFrame);
  const responseBody = createBodyCollector(deps.maxFrame);
  let requestEndMs: number | undefined;
  let requestRecorded = false;
  let httpRecorded = false;
  let framer: ReturnType<typeof createSseFramer> | undefined;
  let json = false;
  let rewrite: EndpointRewrite | undefined;
  // What the spy changed for authorization: the record keeps what each side said.
  const authRewrites: AuthRewrite[] = [];
  let ownsLegacySession = false;

  const recordRequest = () => {
    if (requestRecorded || choice === undefined || requestEndMs === undefined) return;
    requestRecorded = true;
    const frame = requestBody.take();
    if (!frame) return;
    const { session } = choice;
    const version = text(start.headers, 'mcp-protocol-version');
    if (version) recorder.correlator(session).setRevision(version);
    const headers = mcpHeadersOf(start.headers);
    const fields = Object.keys(headers).length > 0 ? { headers } : undefined;
    const entries = recorder.frame(session, 'c2s', frame, requestEndMs, fields);
    const first = entries[0];
    if (!first || frame.truncated || !(isStatelessRevision(version) || 'mcp-method' in start.headers)) return;
    let message: unknown;
    try {
      message = JSON.parse(frame.bytes.toString('utf8'));
    } catch {
      return;
    }
    const mismatches = headerMismatches(start.headers, message);
    if (mismatches.length === 0) return;
    const related = { seq: first.seq, id: first.id ?? null, method: first.method ?? '' };
    recorder.event(session, 'note', { notes: ['header-mismatch'], text: `header and body disagree: ${mismatches.join('; ')}`, related });
  };

  const recordHttp = (extra: Partial<RecordEntry> = {}) => {
    if (httpRecorded) return;
    httpRecorded = true;
    if (!isNotable(facts)) return;
    const headers: Record<string, HeaderRecord> = { request: deps.redact(start.headers) };
    if (facts.response) headers.response = deps.redact(facts.response);
    const fields: Partial<RecordEntry> = { httpMethod: start.method, path: start.path, headers, summary: summarizeExchange(facts), ...extra };
    if (authRewrites.length > 0) fields.rewrites = [...authRewrites];
    if (facts.status !== undefined) fields.status = facts.status;
    if (facts.reason !== undefined) fields.reason = facts.reason;
    recorder.event(choice?.session, 'http', fields);
  };

  const finish = () => {
    if (!choice) return;
    // A legacy session lives as long as its event stream.
    const ended = ownsLegacySession
      || (start.method === 'DELETE' && facts.status !== undefined && facts.status < 300)
      || (facts.status === 404 && text(start.headers, 'mcp-session-id') !== undefined);
    if (choice.perExchange || ended) sessions.end(choice.session);
  };

  const onEvent = (event: SseEvent, timeMs: number) => {
    if (event.event === 'endpoint') {
      if (!choice) {
        choice = sessions.learnEndpoint(event.data, start.path);
        ownsLegacySession = true;
      }
      facts.endpoint = { from: event.data, to: rewrite?.to };
      const fields: Partial<RecordEntry> = { endpoint: event.data };
      if (rewrite) fields.endpointRewritten = rewrite.to;
      httpRecorded = false;
      recordHttp(fields);
      facts.endpoint = undefined;
      return;
    }
    choice ??= sessions.perExchange();
    recordHttp();
    const { session } = choice;
    const fields = sseFields(event);
    if (event.truncated) {
      recorder.frame(session, 's2c', { bytes: Buffer.from(event.data, 'utf8'), truncated: true }, timeMs, fields);
      return;
    }
    if (event.data === '') {
      // A priming event (an id, no data) or a bare retry: the client's resumption point.
      if (fields) recorder.event(session, 'http', { httpMethod: start.method, path: start.path, summary: event.id !== undefined ? `SSE priming event, id ${event.id}` : 'SSE event without data', ...fields });
      return;
    }
    recorder.frame(session, 's2c', { bytes: Buffer.from(event.data, 'utf8') }, timeMs, fields);
  };

  return {
    requestChunk: (chunk) => requestBody.push(chunk),
    requestEnd(timeMs = nowMs()) {
      requestEndMs = timeMs;
      recordRequest();
    },
    response(status: number, headers: IncomingHttpHeaders) {
      facts.status = status;
      facts.response = headers;
      const type = text(headers, 'content-type') ?? '';
      json = type.includes('json');
      if (type.includes('text/event-stream')) {
        facts.stream = true;
        framer = createSseFramer(deps.maxFrame);
      }
      choice ??= sessions.ofResponse(headers);
      // A stream without a session may be legacy HTTP+SSE: its first event, endpoint, names the session.
      if (!choice && !(framer && start.method === 'GET')) choice = sessions.perExchange();
      recordRequest();
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
      const extra: Partial<RecordEntry> = {};
      if (frame && !json) extra.body = frame.bytes.subarray(0, 200).toString('utf8');
      recordHttp(extra);
      if (frame && json) recorder.frame(choice.session, 's2c', frame, timeMs);
      finish();
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
      recordRequest();
      facts.reason = failure.message;
      if (failure.answered) facts.status = failure.answered.status;
      httpRecorded = false;
      recordHttp();
      // A 408 has no body: only a body is a frame.
      if (failure.answered && failure.answered.body.length > 0) recorder.frame(choice.session, 's2c', { bytes: failure.answered.body }, timeMs, { origin: 'spy' });
      finish();
    },
  };
}
