import { pick, pickString } from '../../protocol/jsonrpc.js';
import { metaKeys } from '../../protocol/revisions.js';
import type { Correlation, PendingRequest } from './correlation.js';
import { createRoundTrips, isInputRequired, isRetry, multiRoundMethods, type CallOrigin, type RoundTrips } from './round-trips.js';
import { pinDrift, pinGoneMessage, pinsOf, type ToolPins } from './tool-pin.js';
import type { NoteId } from '../../protocol/notes.js';
import { createToolWatch, toolChangeMessage, type ToolWatch } from './tool-watch.js';

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

/** What a note on a frame means in words, said as an event after the frame (which tools changed, and how). */
export interface Notice {
  note: NoteId;
  text: string;
}

/**
 * Which listed tools differ from their pins, in words: undefined when none does. `complete` is the
 * whole list when this page ended it: a pinned tool missing from it is gone.
 */
function pinDriftMessage(pinned: Readonly<Record<string, string>>, listed: unknown[], complete?: ReadonlyMap<string, string>): string | undefined {
  const parts: string[] = [];
  for (const tool of listed) {
    const drift = pinDrift(pinned, tool);
    const name = (tool as { name: string }).name;
    if (drift === 'changed') parts.push(`tool ${name} differs from its pin in the baseline`);
    else if (drift === 'not-pinned') parts.push(`tool ${name} is not in the baseline (new since it was written)`);
  }
  if (complete) for (const name of Object.keys(pinned)) if (!complete.has(name)) parts.push(pinGoneMessage(name));
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** A class, its parts each made when first needed: most sessions (a stateless exchange) never list tools or go round. */
export class SessionWatch {
  private tools: ToolWatch | undefined;
  private rounds: RoundTrips | undefined;
  private server: string | undefined;
  private notices: Notice[] | undefined;

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
    if (request.subject !== undefined && isInputRequired(result))
      (this.rounds ??= createRoundTrips()).inputRequired(request.subject, request.origin ?? originOf(request), result);
    if (request.method !== 'tools/list' || request.dir !== 'c2s') return;
    const tools = (this.tools ??= createToolWatch());
    const change = tools.listed(result);
    if (change) this.notice(out, 'tool-changed-mid-session', toolChangeMessage(change));
    const pinned = pinsOf(this.pins, this.server);
    const listed = pick(result, 'tools');
    const drift = pinned && Array.isArray(listed) ? pinDriftMessage(pinned, listed, tools.ended) : undefined;
    if (drift !== undefined) this.notice(out, 'tool-definition-changed', drift);
  }

  /** The notices since the last call: the recorder says each after the frame that carries its note. */
  takeNotices(): Notice[] | undefined {
    const taken = this.notices;
    this.notices = undefined;
    return taken;
  }

  private notice(out: Correlation, note: NoteId, text: string) {
    out.notes.push(note);
    (this.notices ??= []).push({ note, text });
  }

  notification(method: string | undefined, dir: string) {
    if (method === 'notifications/tools/list_changed' && dir === 's2c') (this.tools ??= createToolWatch()).listChanged();
  }
}
