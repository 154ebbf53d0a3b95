import { idKey, isObject, pick, pickString, type JsonRpcId } from '../protocol/jsonrpc.js';
import type { NoteId } from '../protocol/notes.js';
import { isStatelessRevision, metaKeys } from '../protocol/revisions.js';
import type { Classified } from './classify.js';
import { oppositeOf, type Direction, type FrameKind } from './kinds.js';
import { createRecentIds, type RecentIds } from './recent-ids.js';
import type { CallOrigin } from './round-trips.js';
import { createSessionWatch } from './session-watch.js';
import type { ToolPins } from './tool-pin.js';

/** A request still waiting for its response. */
export interface PendingRequest {
  dir: Direction;
  id: JsonRpcId;
  method: string;
  tool?: string;
  seq: number;
  timeMs: number;
  /** The key of its progress token, when it asked for progress. */
  progressToken?: string;
  /** Its sender cancelled it: a response may still come, and none is owed. */
  cancelled?: boolean;
  /** A server request sent after the client closed its input: nobody could answer it. */
  afterClientClosed?: boolean;
  /** A request of a multi-round-trip method: its method and what it is about, to link its rounds. */
  subject?: string;
  /** A retry of a multi-round-trip call: the call's first request, and this request's round. */
  origin?: CallOrigin;
}

/**
 * Whether a request still pending when its session ends was left unanswered: one definition, for the
 * spy's `unanswered` event and for `check`, so the two cannot disagree.
 */
export function awaitsAnswer(request: { cancelled?: boolean; afterClientClosed?: boolean }): boolean {
  return !request.cancelled && !request.afterClientClosed;
}

/** What correlation adds to a classified frame. */
export interface Correlation {
  kind: FrameKind;
  method?: string;
  tool?: string;
  prompt?: string;
  uri?: string;
  latencyMs?: number;
  rev?: string;
  /**
   * For a response: the request's seq; for progress or cancellation: the request it is about; for the
   * retry of a multi-round-trip call: the call's first request. `round` (2, 3, ...) on a retry and on
   * the answer to it.
   */
  related?: { seq: number; id: JsonRpcId; method: string; tool?: string; round?: number };
  notes: NoteId[];
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
function relatedOf(request: PendingRequest): NonNullable<Correlation['related']> {
  return request.tool === undefined
    ? { seq: request.seq, id: request.id, method: request.method }
    : { seq: request.seq, id: request.id, method: request.method, tool: request.tool };
}

/**
 * How many request ids per direction are remembered to catch a `duplicate-id`, most recent first
 * kept: ids may never be reused within a session before 2026, but remembering every one costs ~58
 * bytes a request, without end in a long session. A duplicate of a pending or recent id is still
 * caught; reuse of one older than this many requests goes unnoticed.
 */
export const rememberedIds = 10_000;

/**
 * Pairs responses with requests in both directions, measures latency, links progress and
 * cancellation to their requests, and follows the protocol revision of one session.
 * Synchronous and total: every input gets a result, peer mistakes become notes.
 */
export function createCorrelator(options: { pins?: ToolPins } = {}) {
  const watch = createSessionWatch(options.pins);
  const pending = new Map<string, PendingRequest>();
  /** The ids last requested in each direction. */
  const recentIds: Record<Direction, RecentIds> = { c2s: createRecentIds(rememberedIds), s2c: createRecentIds(rememberedIds) };
  const progressTokens = new Map<string, string>();
  let revision: string | undefined;
  /** The revision initialize agreed on, whatever headers say later. */
  let negotiated: string | undefined;
  let clientClosed = false;

  const keyOf = (dir: Direction, id: JsonRpcId) => `${dir}|${idKey(id)}`;

  function noteRevision(candidate: unknown) {
    if (typeof candidate === 'string' && candidate.length > 0) revision = candidate;
  }

  function onRequest(input: FrameInput, out: Correlation) {
    const { dir, classified, message } = input;
    const id = classified.id ?? null;
    const params = pick(message, 'params');
    noteSubject(classified.method, params, out);
    noteRevision(pickString(params, '_meta', metaKeys.protocolVersion));
    if (classified.method === 'initialize' && revision === undefined) noteRevision(pickString(params, 'protocolVersion'));
    const key = keyOf(dir, id);
    // From 2026 an id is unique among outstanding requests only: once answered it may come again.
    const stateless = isStatelessRevision(revision);
    const reused = pending.has(key) || (!stateless && recentIds[dir].has(key));
    if (reused && id !== null) out.notes.push('duplicate-id');
    if (!stateless) recentIds[dir].remember(key);
    const request: PendingRequest = { dir, id, method: classified.method!, seq: input.seq, timeMs: input.timeMs };
    if (out.tool !== undefined) request.tool = out.tool;
    if (clientClosed && dir === 's2c') {
      request.afterClientClosed = true;
      out.notes.push('client-closed');
    }
    pending.set(key, request);
    watch.request(request, params, out);
    const token = pick(params, '_meta', 'progressToken');
    if (typeof token === 'string' || typeof token === 'number') {
      request.progressToken = `${dir}|${idKey(token)}`;
      progressTokens.set(request.progressToken, key);
    }
  }

  function onResponse(input: FrameInput, out: Correlation) {
    const { dir, classified, message } = input;
    if (!classified.hasId || (classified.id === null && classified.kind === 'protocol-error')) return;
    const key = keyOf(oppositeOf(dir), classified.id ?? null);
    const request = pending.get(key);
    if (!request) {
      out.notes.push('orphan-response');
      return;
    }
    pending.delete(key);
    out.method = request.method;
    if (request.tool !== undefined) out.tool = request.tool;
    out.latencyMs = Math.max(0, Math.round((input.timeMs - request.timeMs) * 10) / 10);
    out.related = relatedOf(request);
    if (out.kind === 'tool-error' && request.method !== 'tools/call') out.kind = 'response';
    const result = pick(message, 'result');
    if (request.method === 'initialize') {
      negotiated = pickString(result, 'protocolVersion') ?? negotiated;
      noteRevision(negotiated);
    }
    if (request.method === 'server/discover' && revision === undefined) {
      const versions = pick(result, 'supportedVersions');
      if (Array.isArray(versions)) noteRevision(versions.find((v) => typeof v === 'string'));
    }
    if (request.progressToken !== undefined) progressTokens.delete(request.progressToken);
    if (result !== undefined) watch.response(request, result, out);
  }

  function onNotification(input: FrameInput, out: Correlation) {
    const { dir, classified, message } = input;
    const params = pick(message, 'params');
    watch.notification(classified.method, dir);
    if (classified.method === 'notifications/progress') {
      const token = pick(params, 'progressToken');
      const requestKey = (typeof token === 'string' || typeof token === 'number') && progressTokens.get(`${oppositeOf(dir)}|${idKey(token)}`);
      const request = requestKey ? pending.get(requestKey) : undefined;
      if (request) out.related = relatedOf(request);
      else out.notes.push('unknown-progress-token');
    }
    if (classified.method === 'notifications/cancelled') {
      const requestId = pick(params, 'requestId');
      const request = isObject(params) && (typeof requestId === 'string' || typeof requestId === 'number')
        ? pending.get(keyOf(dir, requestId))
        : undefined;
      if (request) {
        out.related = relatedOf(request);
        request.cancelled = true;
      } else out.notes.push('cancel-unknown-request');
    }
  }

  return {
    /** Annotates one classified frame, updating the session's state. */
    observe(input: FrameInput): Correlation {
      const out: Correlation = { kind: input.classified.kind, notes: [] };
      if (input.classified.method !== undefined) out.method = input.classified.method;
      const kind = input.classified.kind;
      if (kind === 'request') onRequest(input, out);
      else if (kind === 'response' || kind === 'tool-error' || kind === 'protocol-error') onResponse(input, out);
      else if (kind === 'notification') onNotification(input, out);
      if (revision !== undefined) out.rev = revision;
      return out;
    },
    /** A revision learned outside the frames (an HTTP header). */
    setRevision(candidate: string) {
      noteRevision(candidate);
    },
    get revision() {
      return revision;
    },
    /** The revision the session's initialize agreed on, if it had one. */
    get negotiated() {
      return negotiated;
    },
    /**
     * Takes back a request its receiver never took (an HTTP auth challenge refused it): it is not
     * pending, and the client sending it again with the same id is no duplicate.
     */
    withdraw(dir: Direction, id: JsonRpcId): PendingRequest | undefined {
      const key = keyOf(dir, id);
      const request = pending.get(key);
      pending.delete(key);
      recentIds[dir].forget(key);
      if (request?.progressToken !== undefined) progressTokens.delete(request.progressToken);
      return request;
    },
    /** The client closed its input (stdio): server requests from now on cannot be answered. */
    clientClosed() {
      clientClosed = true;
    },
    /** How many entries each of its tables holds: what the correlator keeps in memory. */
    held() {
      return { pending: pending.size, progressTokens: progressTokens.size, recentIds: recentIds.c2s.size + recentIds.s2c.size };
    },
    /** Requests never answered that were owed an answer, oldest first. */
    unanswered(): PendingRequest[] {
      return [...pending.values()].filter(awaitsAnswer).sort((a, b) => a.seq - b.seq);
    },
  };
}

export type Correlator = ReturnType<typeof createCorrelator>;
