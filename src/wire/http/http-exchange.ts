import { describeChallenge, readChallenge, withdrawRefused } from './auth-challenge.js';
import { crossAppStep } from './cross-app-access.js';
import { BodyCollector } from '../framing/body-collector.js';
import {
  pathOnly,
  type AuthRewrite,
  type EndpointRewrite,
  type ExchangeFailure,
  type ExchangeTap,
  type ExchangeStart,
  type FrameMark,
} from './exchange-tap.js';
import type { EntryFields, ExchangeRecords, FrameReceipt } from './exchange-records.js';
import type { ExchangeSessions, SessionChoice } from './exchange-sessions.js';
import { otherRequestOf, requestEntriesOf, requestIsFrame, wholeRequest, type RequestState, type ResponseState } from './exchange-state.js';
import { keepBodies, maskUrl, mediaTypeOf, readBody, type OtherBody } from './http-bodies.js';
import { httpEventFields, type HttpEventDeps } from './http-event.js';
import { isNotable, type ExchangeFacts } from './http-summary.js';
import { headerValue, mcpHeadersOf, requestMismatches, type HeaderBag } from './mcp-headers.js';
import { nowMs } from '../framing/now.js';
import { createSseFramer, sseFieldsOf, type SseEvent } from '../framing/sse-framer.js';

/** The bytes of a chunk after the blank line that ended its last event (LF LF, CR CR, or CRLF CRLF). */
function afterLastEvent(chunk: Buffer): number {
  const ends = [
    [chunk.lastIndexOf('\n\n'), 2],
    [chunk.lastIndexOf('\r\r'), 2],
    [chunk.lastIndexOf('\n\r\n'), 3],
  ].map(([at, size]) => (at! < 0 ? -1 : at! + size!));
  const end = Math.max(...ends);
  return end < 0 ? chunk.length : chunk.length - end;
}

export interface ExchangeDeps extends HttpEventDeps {
  records: ExchangeRecords;
  sessions: ExchangeSessions;
  maxFrame: number;
  /** The target's path: whatever is sent there is MCP, a frame even when it is garbage. */
  mcpPath: string;
  /** Says on stderr, once, what the user must know beyond the record (a cross-app access the spy breaks). */
  warn?: (message: string) => void;
}

const noFields: EntryFields = {};

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
export function observeExchange(start: ExchangeStart, deps: ExchangeDeps): ObservedExchange {
  return new ObservedExchange(start, deps);
}

/**
 * One exchange as it is observed (see `observeExchange`). A class, not closures: one is made per
 * exchange, and its parts (body collectors, the SSE framer, header copies) only when it needs them.
 * Its lifecycle is the state of each side, request and response, each one field: the two run apart
 * (a server may answer before the request ends, and the request waits for the session the answer names).
 */
export class ObservedExchange implements ExchangeTap {
  private readonly facts: ExchangeFacts;
  private choice: SessionChoice | undefined;
  /** Not the MCP-Protocol-Version header: clients send it on their OAuth discovery requests too. */
  private readonly mcp: boolean;
  private requestState: RequestState = { step: 'arriving' };
  private responseState: ResponseState = { step: 'awaited' };
  /** The http event is stamped with when its exchange was answered, not when the observer got to it. */
  private responseMs: number | undefined;
  private rewrite: EndpointRewrite | undefined;
  /** What the spy changed for authorization: the record keeps what each side said. */
  private authRewrites: AuthRewrite[] | undefined;
  private challengeFields: EntryFields = noFields;
  /** A fault rule's mark for the response body's frame (a body spoiled or made noisy, as delivered). */
  private bodyMark: FrameMark | undefined;
  /** `exchange` on every entry of this exchange, so readers know which frames one exchange carried. */
  private readonly tag: EntryFields;
  /** Response body bytes no entry stands for yet: a body's until its end; a stream's since its last whole event. */
  private responseUnrecorded = 0;

  constructor(
    readonly start: ExchangeStart,
    private readonly deps: ExchangeDeps,
  ) {
    this.facts = { method: start.method, request: start.headers };
    this.choice = deps.sessions.ofRequest(start.path, start.headers);
    this.mcp = pathOnly(start.path) === deps.mcpPath || (this.choice !== undefined && !this.choice.perExchange);
    this.tag = start.x === undefined ? noFields : { exchange: start.x };
    // Masking the headers as they arrive teaches the secrets a body may echo; the copy is made when recorded.
    deps.redact.learn(start.headers);
  }

  requestChunk(chunk: Buffer) {
    const { requestState: request } = this;
    if (request.step === 'arriving') (request.body ??= new BodyCollector(this.deps.maxFrame)).push(chunk);
  }

  requestEnd(timeMs = nowMs()) {
    this.endRequest(timeMs);
    this.recordRequest();
  }

  response(status: number, headers: HeaderBag, timeMs = nowMs()) {
    const { facts, deps } = this;
    this.responseMs = timeMs;
    facts.status = status;
    facts.response = headers;
    deps.redact.learn(headers);
    const type = headerValue(headers, 'content-type') ?? '';
    const asked = this.mcp || requestIsFrame(this.requestState);
    const frames = asked && readChallenge(status, headers) === undefined;
    // JSON-RPC sent elsewhere reads like MCP; anything else is described by what it carries.
    if (!asked) facts.mediaType = mediaTypeOf(type);
    const location = headerValue(headers, 'location');
    if (status >= 300 && status < 400 && location !== undefined) facts.redirect = deps.learn ? maskUrl(location, deps.learn) : location;
    const streamed = frames && type.includes('text/event-stream');
    if (streamed) facts.stream = true;
    this.choice ??= deps.sessions.ofResponse(headers);
    // A stream without a session may be legacy HTTP+SSE: its first event, endpoint, names the session.
    if (!this.choice && !(streamed && this.start.method === 'GET')) this.choice = deps.sessions.perExchange();
    this.recordRequest();
    const challenged = this.withdrawChallenged();
    if (challenged) this.challengeFields = challenged;
    if (!streamed) {
      this.responseState = { step: 'body', framed: frames && type.includes('json') };
      return;
    }
    this.responseState = { step: this.choice ? 'stream' : 'stream-unplaced', framer: createSseFramer(deps.maxFrame) };
    if (this.choice) this.recordHttp();
  }

  responseChunk(chunk: Buffer, timeMs = nowMs(), mark?: FrameMark) {
    const { responseState: response } = this;
    // The forwarding side sends the response's head before any byte of its body.
    if (response.step === 'awaited') return;
    if (response.step === 'body') {
      (response.body ??= new BodyCollector(this.deps.maxFrame)).push(chunk);
      if (mark) this.bodyMark = mark;
      this.responseUnrecorded += chunk.length;
      return;
    }
    const events = response.framer.push(chunk);
    this.responseUnrecorded = events.length > 0 ? afterLastEvent(chunk) : this.responseUnrecorded + chunk.length;
    for (const event of events) this.onEvent(event, timeMs, mark);
  }

  /**
   * The body bytes of each side that no entry in the record stands for, should the exchange end
   * here: the request's until it is recorded, the response's not in a frame yet.
   */
  unrecorded(requestBytes: number): { request: number; response: number } {
    const { requestState: request } = this;
    return { request: request.step === 'recorded' && request.frame ? 0 : requestBytes, response: this.responseUnrecorded };
  }

  responseEnd(timeMs = nowMs()) {
    if (this.responseState.step !== 'awaited' && this.responseState.step !== 'body')
      for (const event of this.responseState.framer.end()) this.onEvent(event, timeMs);
    const { responseState: response } = this;
    const choice = (this.choice ??= this.deps.sessions.perExchange());
    const frame = response.step === 'body' ? response.body?.take() : undefined;
    const framed = frame !== undefined && response.step === 'body' && response.framed;
    const other = frame && !framed ? readBody(frame.bytes, headerValue(this.facts.response, 'content-type')) : undefined;
    const refused = this.refusedRequests();
    const fields =
      refused.length > 0
        ? { ...this.challengeFields, requests: refused.map(({ seq, id, method }) => ({ seq, dir: 'c2s', id: id ?? null, method: method ?? '' })) }
        : this.challengeFields;
    // A stream said its http event when it opened (or at its first event).
    if (response.step !== 'stream' && response.step !== 'legacy-stream')
      this.recordHttp(other || otherRequestOf(this.requestState) ? { ...this.describeBodies(other), ...fields } : fields);
    if (framed) this.deps.records.frame(choice.session, 's2c', frame, timeMs, this.tagged(undefined, 'response', this.bodyMark));
    if (refused.length > 0) withdrawRefused(refused, this.deps.records.correlator(choice.session));
    this.finish(timeMs);
  }

  endpointRewritten(value: EndpointRewrite) {
    this.rewrite = value;
  }

  authRewritten(value: AuthRewrite) {
    (this.authRewrites ??= []).push(value);
    this.facts.rewrites = this.authRewrites.length;
  }

  failed(failure: ExchangeFailure, timeMs = nowMs()) {
    const choice = (this.choice ??= this.deps.sessions.perExchange());
    this.endRequest(timeMs);
    this.recordRequest();
    this.facts.reason = failure.message;
    if (failure.answered) this.facts.status = failure.answered.status;
    this.responseMs = timeMs;
    // Said whether or not the exchange's http event was: the failure is news.
    this.recordHttp(this.describeBodies(undefined));
    // A 408 has no body: only a body is a frame.
    if (failure.answered && failure.answered.body.length > 0)
      this.deps.records.frame(choice.session, 's2c', { bytes: failure.answered.body }, timeMs, { origin: 'spy', ...this.tag });
    this.finish(timeMs);
  }

  /**
   * The rest of the exchange outran the observer (a gap in the record): its session is let go as at
   * its end, or it would count as busy for ever, never expired, and its state never freed.
   */
  abandon(timeMs = nowMs()) {
    const { choice } = this;
    if (!choice) return;
    if (choice.perExchange) this.deps.sessions.end(choice.session, timeMs);
    else this.deps.sessions.release(choice.session, timeMs);
  }

  /** The request, once it is whole: a frame, or a body that is not MCP to describe. */
  private endRequest(timeMs: number) {
    if (this.requestState.step !== 'arriving') return;
    this.requestState = wholeRequest(this.requestState.body?.take(), this.mcp, headerValue(this.start.headers, 'content-type'), timeMs);
  }

  /** Records the whole request once its session is known. */
  private recordRequest() {
    const { choice, requestState: request, start } = this;
    if (request.step !== 'whole' || choice === undefined) return;
    const { frame, other, endMs } = request;
    this.requestState = { step: 'recorded', frame, other };
    if (!frame) return;
    const { records } = this.deps;
    const { session } = choice;
    const version = headerValue(start.headers, 'mcp-protocol-version');
    const correlator = records.correlator(session);
    const { negotiated } = correlator;
    if (version) correlator.setRevision(version);
    const headers = mcpHeadersOf(start.headers);
    const entries = records.frame(session, 'c2s', frame, endMs, this.tagged(headers ? { headers } : undefined, 'request'));
    this.requestState = { step: 'recorded', frame, other, entries };
    const first = entries[0];
    if (!first || frame.truncated) return;
    const mismatches = requestMismatches(start.headers, frame.bytes, version, negotiated, (tool) => correlator.paramHeadersOf(tool));
    if (mismatches.length === 0) return;
    const related = { seq: first.seq, id: first.id ?? null, method: first.method ?? '' };
    records.event(session, 'note', { notes: ['header-mismatch'], text: `header and body disagree: ${mismatches.join('; ')}`, related });
  }

  /** A request refused with an auth challenge was never taken: it is not pending, and its retry is the real one. */
  private withdrawChallenged() {
    const { facts, choice } = this;
    const challenge = readChallenge(facts.status, facts.response);
    if (!challenge || !choice) return undefined;
    const requests = withdrawRefused(requestEntriesOf(this.requestState), this.deps.records.correlator(choice.session));
    facts.challenge = describeChallenge(
      challenge,
      requests.map((request) => `${request.method} #${JSON.stringify(request.id)}`),
    );
    return requests.length > 0 ? { challenge, requests } : { challenge };
  }

  /**
   * The requests an error status refused (a 404 to a session that is gone, as the spec answers after a
   * DELETE or an expiry; a 400): the status is their answer, whatever id its body carries, so they are
   * not owed another. Listed in the http event; taken back once the body had its chance to answer them.
   */
  private refusedRequests(): FrameReceipt[] {
    const { facts, choice } = this;
    if (!choice || facts.status === undefined || facts.status < 400 || this.challengeFields !== noFields) return [];
    const correlator = this.deps.records.correlator(choice.session);
    return requestEntriesOf(this.requestState).filter(
      (entry) => entry.kind === 'request' && entry.dir === 'c2s' && correlator.pendingRequest('c2s', entry.id ?? null)?.seq === entry.seq,
    );
  }

  /** What the record keeps of bodies that are not frames: an excerpt, secrets masked, and what they are. */
  private describeBodies(response: OtherBody | undefined): EntryFields {
    const { learn } = this.deps;
    const request = otherRequestOf(this.requestState);
    const { fields, said } = keepBodies(response, request, { learn, scrub: (text) => this.scrub(text), sized: !this.mcp });
    const crossApp = crossAppStep(request?.form, this.facts.status, response?.json, headerValue(this.start.headers, 'host'), this.deps.warn);
    const told = [said, crossApp].filter((phrase) => phrase !== '' && phrase !== undefined).join('; ');
    // A challenge says what its body says (an OAuth error), and says it better.
    if (told !== '' && !this.facts.challenge) this.facts.bodies = told;
    return fields;
  }

  private scrub(text: string): string {
    return this.deps.learn ? this.deps.records.secrets.scrub(text) : text;
  }

  /** Says the exchange's http event, when it has something to say: each caller says it once. */
  private recordHttp(extra: EntryFields = noFields, timeMs = this.responseMs) {
    if (!isNotable(this.facts)) return;
    this.deps.records.event(
      this.choice?.session,
      'http',
      httpEventFields(this.start, this.facts, this.deps, { ...extra, ...this.tag }, this.authRewrites),
      timeMs,
    );
  }

  private finish(timeMs: number) {
    const { choice, facts, start } = this;
    if (!choice) return;
    // A legacy session lives as long as its event stream.
    const ended =
      this.responseState.step === 'legacy-stream' ||
      (start.method === 'DELETE' && facts.status !== undefined && facts.status < 300) ||
      (facts.status === 404 && headerValue(start.headers, 'mcp-session-id') !== undefined);
    if (choice.perExchange || ended) this.deps.sessions.end(choice.session, timeMs);
    else this.deps.sessions.release(choice.session, timeMs);
  }

  private onEvent(event: SseEvent, timeMs: number, mark?: FrameMark) {
    const { deps, start, responseState: response } = this;
    if (response.step === 'awaited' || response.step === 'body') return;
    if (event.event === 'endpoint') {
      if (response.step === 'stream-unplaced') {
        this.choice = deps.sessions.learnEndpoint(event.data, start.path);
        this.responseState = { step: 'legacy-stream', framer: response.framer };
      }
      this.facts.endpoint = { from: event.data, to: this.rewrite?.to };
      const fields: EntryFields = { endpoint: event.data };
      if (this.rewrite) fields.endpointRewritten = this.rewrite.to;
      // Said even when the stream's http event was: the endpoint is news.
      this.recordHttp(fields, timeMs);
      this.facts.endpoint = undefined;
      return;
    }
    if (response.step === 'stream-unplaced') {
      this.choice = deps.sessions.perExchange();
      this.responseState = { step: 'stream', framer: response.framer };
      this.recordHttp();
    }
    const { session } = this.choice!;
    const fields = sseFieldsOf(event);
    if (event.truncated) {
      deps.records.frame(session, 's2c', { bytes: Buffer.from(event.data, 'utf8'), truncated: true }, timeMs, this.tagged(fields, 'response', mark));
      return;
    }
    if (event.data === '') {
      // A priming event (an id, no data) or a bare retry: the client's resumption point.
      if (fields)
        deps.records.event(
          session,
          'http',
          {
            httpMethod: start.method,
            path: start.path,
            summary: event.id !== undefined ? `SSE priming event, id ${event.id}` : 'SSE event without data',
            ...fields,
            ...this.tag,
          },
          timeMs,
        );
      return;
    }
    deps.records.frame(session, 's2c', { bytes: Buffer.from(event.data, 'utf8') }, timeMs, this.tagged(fields, 'response', mark));
  }

  /** A frame's fields with the exchange's number and a fault rule's marks; undefined when there is nothing to add. */
  private tagged(fields: EntryFields | undefined, side: 'request' | 'response', frameMark?: FrameMark): EntryFields | undefined {
    const mark = this.start.marks?.[side];
    if (mark) fields = { ...fields, ...mark };
    if (frameMark) fields = { ...fields, ...frameMark };
    if (this.tag === noFields) return fields;
    return fields ? { ...fields, ...this.tag } : this.tag;
  }
}
