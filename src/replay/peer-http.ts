import { pickString, type JsonObject } from '../protocol/jsonrpc.js';
import { isStatelessRevision, metaKeys } from '../protocol/revisions.js';
import { nameParamOf } from '../wire/http/mcp-headers.js';
import { previewJson } from '../recording/json.js';
import type { Peer, PeerHandlers } from './peer.js';
import { openLegacyStream, type LegacyStream } from './legacy-sse.js';
import { readSse } from './sse.js';
import { parseCut } from '../protocol/depth.js';

function headersFor(message: JsonObject, state: { sessionId?: string; version?: string }): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const version = pickString(message, 'params', '_meta', metaKeys.protocolVersion) ?? state.version;
  if (version) headers['mcp-protocol-version'] = version;
  if (state.sessionId) headers['mcp-session-id'] = state.sessionId;
  if (isStatelessRevision(version) && typeof message.method === 'string') {
    headers['mcp-method'] = message.method;
    const nameKey = nameParamOf(message.method);
    const name = nameKey ? pickString(message, 'params', nameKey) : undefined;
    if (name !== undefined) headers['mcp-name'] = name;
  }
  return headers;
}

function whyUnreachable(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return `cannot connect: ${cause?.code ?? cause?.message ?? (error as Error).message}`;
}

/** Statuses with which a Streamable HTTP POST is refused by a legacy HTTP+SSE server (the specification's list). */
const legacyRefusals = new Set([400, 404, 405]);

/** An HTTP failure in one line: the status, and the body's start unless it is a page. */
async function failureOf(response: Response): Promise<string> {
  const type = response.headers.get('content-type') ?? '';
  const body = type.includes('html') ? '' : (await response.text()).trim();
  return `HTTP ${response.status} ${response.statusText}${body ? `: ${previewJson(body, 120)}` : ''}`;
}

/**
 * A client for one replayed session: Streamable HTTP (POSTs each message, reads JSON or SSE answers),
 * or, when the first POST is refused with a 4xx and a GET opens a stream with an `endpoint` event,
 * the legacy HTTP+SSE transport (posts to that endpoint, answers come on the stream).
 */
export async function startHttpPeer(url: string, handlers: PeerHandlers): Promise<Peer> {
  const state: { sessionId?: string; version?: string } = {};
  const abort = new AbortController();
  const inflight = new Set<Promise<void>>();
  let listening = false;
  let legacy: LegacyStream | undefined;
  // Until the first message's answer has begun the transport is not known: later ones wait for it.
  let probed = false;
  let transportKnown: () => void = () => {};
  const known = new Promise<void>((resolve) => (transportKnown = resolve));

  const deliverText = (text: string) => {
    let value: unknown;
    try {
      value = parseCut(text).value;
    } catch {
      return;
    }
    for (const message of Array.isArray(value) ? value : [value]) {
      const version = pickString(message, 'result', 'protocolVersion');
      if (version && !isStatelessRevision(version)) state.version = version;
      handlers.message(message, Array.isArray(value) ? JSON.stringify(message) : text);
    }
  };

  const readBody = async (response: Response) => {
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('text/event-stream') && response.body) await readSse(response.body, deliverText);
    else deliverText(await response.text());
  };

  // The standalone stream carries what the server sends outside a request: its own requests, list_changed.
  const listen = async () => {
    if (listening || !state.sessionId) return;
    listening = true;
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream', 'mcp-session-id': state.sessionId };
      if (state.version) headers['mcp-protocol-version'] = state.version;
      const response = await fetch(url, { method: 'GET', headers, signal: abort.signal });
      if (response.ok && response.body) await readSse(response.body, deliverText);
    } catch {
      // 405 or a closed stream: the server has nothing to say outside requests.
    }
  };

  const postLegacy = async (stream: LegacyStream, raw: string, message: JsonObject) => {
    try {
      const response = await fetch(stream.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: raw, signal: abort.signal });
      if (!response.ok) handlers.failed(message, await failureOf(response));
      else await response.body?.cancel();
    } catch (error) {
      if (!abort.signal.aborted) handlers.failed(message, whyUnreachable(error));
    }
  };

  // A legacy server refuses the POST; the stream it opens on a GET is the session from then on.
  const tryLegacy = async (raw: string, message: JsonObject, refused: string) => {
    const stream = await openLegacyStream(url, abort.signal, deliverText);
    if ('failure' in stream) return handlers.failed(message, `${refused}; ${stream.failure}`);
    legacy = stream;
    transportKnown();
    void stream.ended.then(() => handlers.closed('the server ended its HTTP+SSE stream'));
    await postLegacy(stream, raw, message);
  };

  const post = async (raw: string, message: JsonObject, probing: boolean) => {
    if (legacy) return postLegacy(legacy, raw, message);
    let response: Response;
    try {
      response = await fetch(url, { method: 'POST', headers: headersFor(message, state), body: raw, signal: abort.signal });
    } catch (error) {
      if (!abort.signal.aborted) handlers.failed(message, whyUnreachable(error));
      return;
    }
    state.sessionId = response.headers.get('mcp-session-id') ?? state.sessionId;
    if (message.method === 'notifications/initialized') void listen();
    if (response.status === 202) return;
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok && !type.includes('json') && !type.includes('event-stream')) {
      const refused = await failureOf(response);
      if (probing && legacyRefusals.has(response.status)) return tryLegacy(raw, message, refused);
      handlers.failed(message, refused);
      return;
    }
    transportKnown();
    await readBody(response);
  };

  const sendInOrder = async (raw: string, message: JsonObject) => {
    if (probed) {
      await known;
      return post(raw, message, false);
    }
    probed = true;
    await post(raw, message, true).finally(transportKnown);
  };

  return {
    send(raw, message) {
      const task = sendInOrder(raw, message).finally(() => inflight.delete(task));
      inflight.add(task);
    },
    async close() {
      await Promise.race([Promise.allSettled([...inflight]), new Promise((resolve) => setTimeout(resolve, 2000))]);
      abort.abort();
      if (state.sessionId && !legacy) {
        await fetch(url, {
          method: 'DELETE',
          headers: { 'mcp-session-id': state.sessionId, ...(state.version ? { 'mcp-protocol-version': state.version } : {}) },
        }).catch(() => {});
      }
      handlers.closed('the session ended');
    },
    stderrTail: () => '',
    sessionId: () => state.sessionId,
  };
}

/** True when a failure reason says the server could not be reached at all. */
export function isUnreachable(reason: string): boolean {
  return reason.startsWith('cannot connect');
}
