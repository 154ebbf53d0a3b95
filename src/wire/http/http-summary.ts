import { headerValue, type HeaderBag } from './mcp-headers.js';

/** The reason phrase of each status code, as node:http's STATUS_CODES holds them. */
export type StatusTexts = Readonly<Record<number, string | undefined>>;

/** The facts of one exchange that its `http` event puts in words. */
export interface ExchangeFacts {
  method: string;
  status?: number;
  request: HeaderBag;
  response?: HeaderBag;
  stream?: boolean;
  reason?: string;
  endpoint?: { from: string; to?: string };
  /** Set for an exchange that is not MCP: the response's media type ('' for none) leads its summary. */
  mediaType?: string;
  /** What the bodies that are not frames are, in words (OAuth metadata, a token, an OAuth error). */
  bodies?: string;
  /** Where a redirect sends the client (secrets in its query masked). */
  redirect?: string;
  /** The auth challenge a 401 (or 403) answered with, in words. */
  challenge?: string;
  /** How many URLs the spy moved between the server's origin and its own (authorization). */
  rewrites?: number;
}

/** Each clause a summary may hold, in the order they are read. */
const clauses: ((facts: ExchangeFacts, statusTexts: StatusTexts) => string | undefined)[] = [
  (f, statusTexts) => {
    if (f.status === undefined) return 'no response';
    if (f.mediaType === undefined) return statusTexts[f.status];
    return `${f.mediaType || 'no body'}${f.bodies ? `: ${f.bodies}` : ''}`;
  },
  (f) => (f.mediaType === undefined ? f.bodies : undefined),
  (f) => {
    const given = headerValue(f.response, 'mcp-session-id');
    return given !== undefined && given !== headerValue(f.request, 'mcp-session-id') ? `session ${given} assigned` : undefined;
  },
  (f) => (f.method === 'DELETE' && f.status !== undefined && f.status < 300 ? 'session ended' : undefined),
  (f) => (f.status === 404 && headerValue(f.request, 'mcp-session-id') !== undefined ? 'session unknown or expired' : undefined),
  (f) => (f.stream ? 'SSE stream' : undefined),
  (f) => {
    const last = headerValue(f.request, 'last-event-id');
    return last !== undefined ? `resuming after event ${last}` : undefined;
  },
  (f) => (f.endpoint ? `endpoint ${f.endpoint.from}${f.endpoint.to ? ` (given to the client as ${f.endpoint.to})` : ''}` : undefined),
  (f) => (f.redirect !== undefined ? `redirect to ${f.redirect}` : undefined),
  (f) => f.challenge,
  (f) => (f.rewrites ? `${f.rewrites} URL${f.rewrites > 1 ? 's' : ''} moved between the server's origin and the spy's (rewrites)` : undefined),
  (f) => f.reason,
];

/** The one line an `http` event shows after method, path and status. */
export function summarizeExchange(facts: ExchangeFacts, statusTexts: StatusTexts): string {
  return clauses
    .map((clause) => clause(facts, statusTexts))
    .filter((part): part is string => part !== undefined && part !== '')
    .join('; ');
}

/** Whether an exchange earns an `http` event: all but a plain 200 to a POST (its frames say it all). */
export function isNotable(facts: ExchangeFacts): boolean {
  if (facts.mediaType !== undefined || facts.challenge !== undefined || facts.rewrites) return true;
  if (facts.method !== 'POST' || facts.status !== 200 || facts.reason !== undefined) return true;
  const given = headerValue(facts.response, 'mcp-session-id');
  return (given !== undefined && given !== headerValue(facts.request, 'mcp-session-id')) || headerValue(facts.request, 'last-event-id') !== undefined;
}
