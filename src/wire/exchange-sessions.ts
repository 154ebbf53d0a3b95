import { isStatelessRevision } from '../protocol/revisions.js';
import { pathOf } from './exchange-observer.js';
import type { ExchangeRecords } from './exchange-records.js';
import { headerValue, type HeaderBag } from './mcp-headers.js';

/** The session an exchange belongs to, and whether it ends with the exchange. */
export interface SessionChoice {
  session: string;
  /** A session of one exchange (stateless traffic): it ends when the exchange does. */
  perExchange: boolean;
}

/** A stateless HTTP exchange, recorded as a session of its own (`x-<n>`, as `perExchange` names them). */
export const isExchangeSession = (session: string): boolean => /^x-\d+$/.test(session);

/** The session id a legacy endpoint URL carries (`sessionId`, or `session_id` as some servers write it). */
function endpointSessionOf(url: URL): string | undefined {
  return url.searchParams.get('sessionId') ?? url.searchParams.get('session_id') ?? undefined;
}

/**
 * Which session each HTTP exchange belongs to: the Mcp-Session-Id; for legacy HTTP+SSE, the session
 * of the endpoint the client posts to; otherwise one session per exchange (`x-<n>`).
 */
export function createExchangeSessions(records: Pick<ExchangeRecords, 'endSession'>) {
  let exchanges = 0;
  /** Sessions not ended yet (a per-exchange one until its exchange ends): ended at the spy's stop. */
  const open = new Set<string>();
  /** Legacy endpoints (path and query) and the session each belongs to. */
  const endpoints = new Map<string, string>();

  const use = (session: string, perExchange: boolean): SessionChoice => {
    open.add(session);
    return { session, perExchange };
  };

  return {
    /** From the request alone, when it says; undefined when only the response can tell. */
    ofRequest(path: string, headers: HeaderBag): SessionChoice | undefined {
      const id = headerValue(headers, 'mcp-session-id');
      if (id !== undefined && id !== '') return use(id, false);
      const legacy = endpoints.get(path);
      if (legacy !== undefined) return use(legacy, false);
      if (isStatelessRevision(headerValue(headers, 'mcp-protocol-version'))) return this.perExchange();
      return undefined;
    },
    /** From the response head: the session id the server assigns, if any. */
    ofResponse(headers: HeaderBag): SessionChoice | undefined {
      const id = headerValue(headers, 'mcp-session-id');
      return id !== undefined && id !== '' ? use(id, false) : undefined;
    },
    perExchange(): SessionChoice {
      return use(`x-${++exchanges}`, true);
    },
    /** A legacy `endpoint` event: later posts to that URL belong to its session. */
    learnEndpoint(endpoint: string, streamPath: string): SessionChoice {
      const url = new URL(endpoint, new URL(streamPath, 'http://spy.invalid'));
      const path = pathOf(`${url.pathname}${url.search}`);
      const session = endpointSessionOf(url) ?? `sse-${++exchanges}`;
      endpoints.set(path, session);
      return use(session, false);
    },
    /** Ends a session: its pending requests are reported as unanswered. */
    end(session: string, timeMs?: number) {
      open.delete(session);
      if (endpoints.size > 0) for (const [path, owner] of endpoints) if (owner === session) endpoints.delete(path);
      records.endSession(session, timeMs);
    },
    endAll() {
      for (const session of [...open]) this.end(session);
    },
  };
}

export type ExchangeSessions = ReturnType<typeof createExchangeSessions>;
