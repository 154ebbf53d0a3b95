import { pick, pickString } from '../protocol/jsonrpc.js';
import { metaKeys } from '../protocol/revisions.js';
import type { Correlation, PendingRequest } from './correlate.js';
import { createRoundTrips, isInputRequired, isRetry, multiRoundMethods, type CallOrigin, type RoundTrips } from './round-trips.js';
import { pinDrift, pinsOf, type ToolPins } from './tool-pin.js';
import { createToolWatch, type ToolWatch } from './tool-watch.js';

/** What a request of a multi-round-trip method is about: its method and tool, prompt or URI. */
function subjectOf(method: string, out: Correlation): string {
  return `${method} ${out.tool ?? out.prompt ?? out.uri ?? ''}`;
}

function originOf(request: PendingRequest): CallOrigin {
  return request.tool === undefined
    ? { seq: request.seq, id: request.id, method: request.method, round: 1 }
    : { seq: request.seq, id: request.id, method: request.method, tool: request.tool, round: 1 };
}

/**
 * What the correlator watches beyond pairing, for one session: the server's tool lists (changed
 * mid-session, or against pinned definitions) and the rounds of multi-round-trip calls. Its findings
 * are notes on the frame, so they reach the record, the log and the live view alike.
 */
export function createSessionWatch(pins?: ToolPins): SessionWatch {
  return new SessionWatch(pins);
}

/** A class, its parts each made when first needed: most sessions (a stateless exchange) never list tools or go round. */
export class SessionWatch {
  private tools: ToolWatch | undefined;
  private rounds: RoundTrips | undefined;
  private server: string | undefined;

  constructor(private readonly pins?: ToolPins) {}

  /** A client request: a retry is linked to the first request of its call (`related`, with its round). */
  request(request: PendingRequest, params: unknown, out: Correlation) {
    if (request.dir !== 'c2s' || !multiRoundMethods.has(request.method)) return;
    request.subject = subjectOf(request.method, out);
    if (!isRetry(params)) return;
    const continued = this.rounds?.retry(request.subject, params);
    if (!continued) return;
    request.origin = continued.origin;
    out.related = { ...continued.origin };
    if (continued.mismatch) out.notes.push('request-state-mismatch');
  }

  /** A result: the server's name, its tool lists, a round that asks for input. */
  response(request: PendingRequest, result: unknown, out: Correlation) {
    this.server = pickString(result, 'serverInfo', 'name') ?? pickString(result, '_meta', metaKeys.serverInfo, 'name') ?? this.server;
    if (request.origin && out.related) out.related.round = request.origin.round;
    if (request.subject !== undefined && isInputRequired(result)) (this.rounds ??= createRoundTrips()).inputRequired(request.subject, request.origin ?? originOf(request), result);
    if (request.method !== 'tools/list' || request.dir !== 'c2s') return;
    if ((this.tools ??= createToolWatch()).listed(result)) out.notes.push('tool-changed-mid-session');
    const pinned = pinsOf(this.pins, this.server);
    const listed = pick(result, 'tools');
    if (pinned && Array.isArray(listed) && listed.some((tool) => pinDrift(pinned, tool) !== undefined)) out.notes.push('tool-definition-changed');
  }

  notification(method: string | undefined, dir: string) {
    if (method === 'notifications/tools/list_changed' && dir === 's2c') (this.tools ??= createToolWatch()).listChanged();
  }
}
