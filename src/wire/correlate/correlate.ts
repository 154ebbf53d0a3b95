import { isObject, pick, pickString, type JsonRpcId } from '../../protocol/jsonrpc.js';
import { isStatelessRevision, metaKeys } from '../../protocol/revisions.js';
import type { Classified } from '../classify/classify.js';
import { oppositeOf, type Direction } from '../classify/kinds.js';
import { paramHeadersOf, type ParamHeader } from './param-headers.js';
import type { Correlation, PendingRequest } from './correlation.js';
import { addPending, addProgressToken, createSentRequests, isTaken, pendingByToken, takePending, type SentRequests } from './sent-requests.js';
import { createSessionWatch, type Notice, type SessionWatch } from './session-watch.js';
import type { ToolPins } from './tool-pin.js';

export { rememberedIds } from './sent-requests.js';

/**
 * Whether a request still pending when its session ends was left unanswered: one definition, for the
 * spy's `unanswered` event and for `check`, so the two cannot disagree.
 */
export function awaitsAnswer(request: { cancelled?: boolean; afterClientClosed?: boolean }): boolean {
  return !request.cancelled && !request.afterClientClosed;
}

export interface FrameInput {
  dir: Direction;
  classified: Classified;
  message: unknown;
  seq: number;
  timeMs: number;
}

/** Names what a request is about: its tool, prompt or resource. Only defined fields are set. */
function noteSubject(method: string | undefined, params: unknown, out: Correlation) {
  if (method === 'tools/call') {
    const tool = pickString(params, 'name');
    if (tool !== undefined) out.tool = tool;
  } else if (method === 'prompts/get') {
    const prompt = pickString(params, 'name');
    if (prompt !== undefined) out.prompt = prompt;
  } else if (method?.startsWith('resources/') && method !== 'resources/list' && method !== 'resources/templates/list') {
    const uri = pickString(params, 'uri');
    if (uri !== undefined) out.uri = uri;
  }
}

// Objects are built with only the fields they have (never `delete`): V8 keeps them fast.
export function relatedOf(request: PendingRequest): NonNullable<Correlation['related']> {
  return request.tool === undefined
    ? { seq: request.seq, id: request.id, method: request.method }
    : { seq: request.seq, id: request.id, method: request.method, tool: request.tool };
}

/** Keeps what each listed tool declares for Mcp-Param-* headers; most tools declare nothing and cost nothing. */
function learnParamHeaders(table: Map<string, ParamHeader[]>, tools: unknown) {
  if (!Array.isArray(tools)) return;
  for (const tool of tools) {
    const name = pickString(tool, 'name');
    if (name === undefined) continue;
    const declared = paramHeadersOf(pick(tool, 'inputSchema'));
    if (declared.length > 0) table.set(name, declared);
    else table.delete(name);
  }
}

const sizeOf = (table: { size: number } | undefined) => table?.size ?? 0;

export interface CorrelatorOptions {
  /** The tool definitions its tool lists are checked against. */
  pins?: ToolPins;
  /**
   * A pending request of another session, for a cancellation naming one this session never saw:
   * stateless HTTP sends each request in an exchange of its own, and its cancellation in another.
   */
  elsewhere?: (dir: Direction, id: JsonRpcId) => PendingRequest | undefined;
  /**
   * The `Mcp-Param-*` headers each listed tool declares (x-mcp-header), by tool name: shared by the
   * sessions of one spy (stateless HTTP lists tools in one exchange and calls them in another).
   */
  paramHeaders?: Map<string, ParamHeader[]>;
}

/** Creates a session's correlator. */
export function createCorrelator(options: CorrelatorOptions = {}): Correlator {
  return new Correlator(options.pins, options.elsewhere, options.paramHeaders);
}

/**
 * Pairs responses with requests in both directions, measures latency, links progress and
 * cancellation to their requests, and follows the protocol revision of one session.
 * Synchronous and total: every input gets a result, peer mistakes become notes.
 *
 * A class whose tables are made on first use: the HTTP spy makes a correlator for every stateless
 * exchange, which sees one request and its answer.
 */
export class Correlator {
  private c2s: SentRequests | undefined;
  private s2c: SentRequests | undefined;
  private watch: SessionWatch | undefined;
  private current: string | undefined;
  /** The revision initialize agreed on, whatever headers say later. */
  private agreed: string | undefined;
  private closed = false;
  /** The seq of the client's last frame: a server request after it that the client closed on was never taken up. */
  private lastClientSeq = 0;

  constructor(
    private readonly pins?: ToolPins,
    private readonly elsewhere?: CorrelatorOptions['elsewhere'],
    private readonly paramHeaders?: Map<string, ParamHeader[]>,
  ) {}

  /** The `Mcp-Param-*` headers a listed tool declares, when a tools/list seen gave any. */
  paramHeadersOf(tool: string): ParamHeader[] | undefined {
    return this.paramHeaders?.get(tool);
  }

  /** The request `id` that `dir` sent, while it is pending. */
  pendingRequest(dir: Direction, id: JsonRpcId): PendingRequest | undefined {
    return this[dir]?.pending.get(id);
  }

  /** Annotates one classified frame, updating the session's state. */
  observe(input: FrameInput): Correlation {
    const out: Correlation = { kind: input.classified.kind, notes: [] };
    if (input.classified.method !== undefined) out.method = input.classified.method;
    const kind = input.classified.kind;
    if (input.dir === 'c2s') this.lastClientSeq = input.seq;
    if (kind === 'request') this.onRequest(input, out);
    else if (kind === 'response' || kind === 'tool-error' || kind === 'protocol-error') this.onResponse(input, out);
    else if (kind === 'notification') this.onNotification(input, out);
    if (this.current !== undefined) out.rev = this.current;
    return out;
  }

  /** What the notes of the frames observed since the last call mean in words (which tools changed). */
  takeNotices(): Notice[] | undefined {
    return this.watch?.takeNotices();
  }

  /** A revision learned outside the frames (an HTTP header). */
  setRevision(candidate: string) {
    this.noteRevision(candidate);
  }

  get revision(): string | undefined {
    return this.current;
  }

  /** The revision the session's initialize agreed on, if it had one. */
  get negotiated(): string | undefined {
    return this.agreed;
  }

  /**
   * Takes back a request its receiver never took (an HTTP auth challenge refused it): it is not
   * pending, and the client sending it again with the same id is no duplicate.
   */
  withdraw(dir: Direction, id: JsonRpcId): PendingRequest | undefined {
    return takePending(this[dir], id, true);
  }

  /**
   * The client closed its input (stdio): server requests from now on cannot be answered, nor those
   * pending that the client sent nothing after. Returns the latter, to be said at the close.
   */
  clientClosed(): PendingRequest[] {
    this.closed = true;
    const left: PendingRequest[] = [];
    for (const request of this.s2c?.pending.values() ?? []) {
      if (request.seq > this.lastClientSeq && awaitsAnswer(request)) {
        request.afterClientClosed = true;
        left.push(request);
      }
    }
    return left;
  }

  /** How many entries each of its tables holds: what the correlator keeps in memory. */
  held() {
    const { c2s, s2c } = this;
    return {
      pending: sizeOf(c2s?.pending) + sizeOf(s2c?.pending),
      progressTokens: sizeOf(c2s?.progress) + sizeOf(s2c?.progress),
      recentIds: sizeOf(c2s?.recent) + sizeOf(s2c?.recent),
    };
  }

  /** Requests never answered that were owed an answer, oldest first. */
  unanswered(): PendingRequest[] {
    const owed: PendingRequest[] = [];
    for (const sent of [this.c2s, this.s2c]) if (sent) for (const request of sent.pending.values()) if (awaitsAnswer(request)) owed.push(request);
    return owed.length > 1 ? owed.sort((a, b) => a.seq - b.seq) : owed;
  }

  private noteRevision(candidate: unknown) {
    if (typeof candidate === 'string' && candidate.length > 0) this.current = candidate;
  }

  private watching(): SessionWatch {
    return (this.watch ??= createSessionWatch(this.pins));
  }

  private onRequest(input: FrameInput, out: Correlation) {
    const { dir, classified, message } = input;
    const id = classified.id ?? null;
    const params = pick(message, 'params');
    noteSubject(classified.method, params, out);
    this.noteRevision(pickString(params, '_meta', metaKeys.protocolVersion));
    if (classified.method === 'initialize' && this.current === undefined) this.noteRevision(pickString(params, 'protocolVersion'));
    const sent = (this[dir] ??= createSentRequests());
    // From 2026 an id is unique among outstanding requests only: once answered it may come again.
    const stateless = isStatelessRevision(this.current);
    if (isTaken(sent, id, !stateless) && id !== null) out.notes.push('duplicate-id');
    const request: PendingRequest = { dir, id, method: classified.method!, seq: input.seq, timeMs: input.timeMs };
    if (out.tool !== undefined) request.tool = out.tool;
    if (this.closed && dir === 's2c') {
      request.afterClientClosed = true;
      out.notes.push('client-closed');
    }
    addPending(sent, request, !stateless);
    this.watching().request(request, params, out);
    const token = pick(params, '_meta', 'progressToken');
    if (typeof token === 'string' || typeof token === 'number') addProgressToken(sent, request, token);
  }

  private onResponse(input: FrameInput, out: Correlation) {
    const { dir, classified, message } = input;
    if (!classified.hasId || (classified.id === null && classified.kind === 'protocol-error')) return;
    const request = takePending(this[oppositeOf(dir)], classified.id ?? null);
    if (!request) {
      out.notes.push('orphan-response');
      return;
    }
    out.method = request.method;
    if (request.tool !== undefined) out.tool = request.tool;
    out.latencyMs = Math.max(0, Math.round((input.timeMs - request.timeMs) * 10) / 10);
    out.related = relatedOf(request);
    if (out.kind === 'tool-error' && request.method !== 'tools/call') out.kind = 'response';
    const result = pick(message, 'result');
    if (request.method === 'initialize') {
      this.agreed = pickString(result, 'protocolVersion') ?? this.agreed;
      this.noteRevision(this.agreed);
    }
    if (request.method === 'server/discover' && this.current === undefined) {
      const versions = pick(result, 'supportedVersions');
      if (Array.isArray(versions)) this.noteRevision(versions.find((v) => typeof v === 'string'));
    }
    if (result !== undefined) this.watching().response(request, result, out);
    if (request.method === 'tools/list' && this.paramHeaders) learnParamHeaders(this.paramHeaders, pick(result, 'tools'));
  }

  private onNotification(input: FrameInput, out: Correlation) {
    const { dir, classified, message } = input;
    const params = pick(message, 'params');
    if (classified.method === 'notifications/tools/list_changed') this.watching().notification(classified.method, dir);
    if (classified.method === 'notifications/progress') {
      const request = pendingByToken(this[oppositeOf(dir)], pick(params, 'progressToken'));
      if (request) out.related = relatedOf(request);
      else out.notes.push('unknown-progress-token');
    }
    // A notification on a subscriptions/listen stream names the listen request it belongs to.
    const subscription = pick(params, '_meta', metaKeys.subscriptionId);
    if ((typeof subscription === 'string' || typeof subscription === 'number') && out.related === undefined) {
      const listen = this[oppositeOf(dir)]?.pending.get(subscription) ?? this.elsewhere?.(oppositeOf(dir), subscription);
      if (listen?.method === 'subscriptions/listen') out.related = relatedOf(listen);
    }
    if (classified.method === 'notifications/cancelled') {
      const requestId = pick(params, 'requestId');
      const named = isObject(params) && (typeof requestId === 'string' || typeof requestId === 'number');
      const request = named ? (this[dir]?.pending.get(requestId) ?? this.elsewhere?.(dir, requestId)) : undefined;
      if (request) {
        out.related = relatedOf(request);
        request.cancelled = true;
      } else out.notes.push('cancel-unknown-request');
    }
  }
}
