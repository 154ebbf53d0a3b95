import { STATUS_CODES } from 'node:http';
import type { HeaderBag } from '../wire/mcp-headers.js';

/** The facts of one exchange that its `http` event puts in words. */
export interface ExchangeFacts {
  method: string;
  status?: number;
  request: HeaderBag;
  response?: HeaderBag;
  stream?: boolean;
  reason?: string;
  endpoint?: { from: string; to?: string };
  /** How many URLs the spy moved between the server's origin and its own (authorization). */
  rewrites?: number;
}

function header(headers: HeaderBag | undefined, name: string): string | undefined {
  const value = headers?.[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Each clause a summary may hold, in the order they are read. */
const clauses: ((facts: ExchangeFacts) => string | undefined)[] = [
  (f) => (f.status === undefined ? 'no response' : STATUS_CODES[f.status]),
  (f) => {
    const given = header(f.response, 'mcp-session-id');
    return given !== undefined && given !== header(f.request, 'mcp-session-id') ? `session ${given} assigned` : undefined;
  },
  (f) => (f.method === 'DELETE' && f.status !== undefined && f.status < 300 ? 'session ended' : undefined),
  (f) => (f.status === 404 && header(f.request, 'mcp-session-id') !== undefined ? 'session unknown or expired' : undefined),
  (f) => (f.stream ? 'SSE stream' : undefined),
  (f) => {
    const last = header(f.request, 'last-event-id');
    return last !== undefined ? `resuming after event ${last}` : undefined;
  },
  (f) => (f.endpoint ? `endpoint ${f.endpoint.from}${f.endpoint.to ? ` (given to the client as ${f.endpoint.to})` : ''}` : undefined),
  (f) => (f.rewrites ? `${f.rewrites} URL${f.rewrites > 1 ? 's' : ''} moved between the server's origin and the spy's (rewrites)` : undefined),
  (f) => f.reason,
];

/** The one line an `http` event shows after method, path and status. */
export function summarizeExchange(facts: ExchangeFacts): string {
  return clauses
    .map((clause) => clause(facts))
    .filter((part): part is string => part !== undefined && part !== '')
    .join('; ');
}

/** Whether an exchange earns an `http` event: all but a plain 200 to a POST (its frames say it all). */
export function isNotable(facts: ExchangeFacts): boolean {
  if (facts.method !== 'POST' || facts.status !== 200 || facts.reason !== undefined || facts.rewrites) return true;
  const given = header(facts.response, 'mcp-session-id');
  return (given !== undefined && given !== header(facts.request, 'mcp-session-id')) || header(facts.request, 'last-event-id') !== undefined;
}
