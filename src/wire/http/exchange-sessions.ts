import { isStatelessRevision } from '../../protocol/revisions.js';
import { pathOf } from './exchange-tap.js';
import type { ExchangeRecords } from './exchange-records.js';
import { headerValue, type HeaderBag } from './mcp-headers.js';
import { nowMs } from '../framing/now.js';

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
 * How long a session may go without an exchange before the spy forgets it, and how many it keeps:
 * a client that never sends DELETE (most do not) would otherwise cost the spy memory for ever. A
 * session with an exchange under way (its GET stream, a streamed answer) is never idle.
 */
export const sessionLimits = { idleMs: 10 * 60_000, open: 5_000 };

/** What the spy keeps of an open session to know when to forget it. */
interface OpenSession {
  /** Exchanges of the session not ended yet. */
  active: number;
  /** When its last exchange began or ended. */
  lastMs: number;
}

/**
 * Which session each HTTP exchange belongs to: the Mcp-Session-Id; for legacy HTTP+SSE, the session
 * of the endpoint the client posts to; otherwise one session per exchange (`x-<n>`). Idle sessions
 * beyond sessionLimits are ended with a `session-expired` note, the least recently used first.
 */
export function createExchangeSessions(records: Pick<ExchangeRecords, 'endSession' | 'event'>, limits = sessionLimits) {
  let exchanges = 0;
  /** Sessions not ended yet (a per-exchange one until its exchange ends), least recently used first: ended at the spy's stop. */
  const open = new Map<string, OpenSession>();
  /** Legacy endpoints (path and query) and the session each belongs to. */
  const endpoints = new Map<string, string>();

  /** Moves a session to the recent end. */
  const touch = (session: string, state: OpenSession, timeMs: number) => {
    state.lastMs = timeMs;
    open.delete(session);
    open.set(session, state);
  };

  /** Ends the idle sessions past the limits, oldest first; stops at the first one within them. */
  const expire = (timeMs: number) => {
    for (const [session, state] of open) {
      if (state.active > 0) continue;
      const idleMs = timeMs - state.lastMs;
      // Called before a new session is added: at the limit, one must go.
      const crowded = open.size >= limits.open;
      if (!crowded && idleMs < limits.idleMs) break;
      const why = crowded ? `${limits.open} sessions open` : `idle for ${Math.round(idleMs / 1000)}s`;
      records.event(session, 'note', { notes: ['session-expired'], text: `the spy stopped following this session (${why}, never ended by DELETE)` }, timeMs);
      sessions.end(session, timeMs);
    }
  };

  const use = (session: string, perExchange: boolean): SessionChoice => {
    const timeMs = nowMs();
    let state = open.get(session);
    if (!state) {
      expire(timeMs);
      state = { active: 0, lastMs: timeMs };
    }
    state.active++;
    touch(session, state, timeMs);
    return { session, perExchange };
  };

  const sessions = {
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
    /** An exchange of the session ended (the session goes on). */
    release(session: string, timeMs: number) {
      const state = open.get(session);
      if (!state) return;
      state.active = Math.max(0, state.active - 1);
      touch(session, state, timeMs);
    },
    /** Ends a session: its pending requests are reported as unanswered. */
    end(session: string, timeMs?: number) {
      open.delete(session);
      if (endpoints.size > 0) for (const [path, owner] of endpoints) if (owner === session) endpoints.delete(path);
      records.endSession(session, timeMs);
    },
    endAll() {
      for (const session of [...open.keys()]) this.end(session);
    },
  };
  return sessions;
}

export type ExchangeSessions = ReturnType<typeof createExchangeSessions>;
