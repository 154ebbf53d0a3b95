import { pickString, type JsonObject } from '../protocol/jsonrpc.js';
import { isStatelessRevision, metaKeys } from '../protocol/revisions.js';
import { nameParamOf } from '../wire/mcp-headers.js';
import { previewJson } from './json.js';
import type { Peer, PeerHandlers } from './peer.js';
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

/** A Streamable HTTP client for one replayed session: POSTs each message, reads JSON or SSE answers. */
export async function startHttpPeer(url: string, handlers: PeerHandlers): Promise<Peer> {
  const state: { sessionId?: string; version?: string } = {};
  const abort = new AbortController();
  const inflight = new Set<Promise<void>>();
  let listening = false;

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

  const post = async (raw: string, message: JsonObject) => {
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
      handlers.failed(message, `HTTP ${response.status} ${response.statusText}: ${previewJson((await response.text()).trim(), 120)}`);
      return;
    }
    await readBody(response);
  };

  return {
    send(raw, message) {
      const task = post(raw, message).finally(() => inflight.delete(task));
      inflight.add(task);
    },
    async close() {
      await Promise.race([Promise.allSettled([...inflight]), new Promise((resolve) => setTimeout(resolve, 2000))]);
      abort.abort();
      if (state.sessionId) {
        await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': state.sessionId, ...(state.version ? { 'mcp-protocol-version': state.version } : {}) } }).catch(() => {});
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

