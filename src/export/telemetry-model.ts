import { tableOf } from '../protocol/own-table.js';
import { entryTime, fieldOf } from '../record/entry-fields.js';
import { isFrameEntry, messageOf } from '../record/frame-message.js';
import { releasedSeqs } from '../record/owed-answers.js';
import type { FrameEntry, RecordEntry } from '../record/schema.js';
import {
  failureOf,
  operationMetricKeys,
  pick,
  serverOperationMetricKeys,
  requestAttributes,
  sessionAttributes,
  sessionIdOf,
  sessionMetricKeys,
  spanNameOf,
  type Attributes,
  type Failure,
  type SessionPlace,
} from './mcp-attributes.js';
import { remoteParentOf, spanIdOf, traceIdOf } from './trace-ids.js';
import type { ListedAttribute } from './label-values.js';
import { pick as pickMember } from '../protocol/jsonrpc.js';

/** The lists whose names the metrics may trust as labels: what the server offers. */
const listings: Readonly<Record<string, { member: string; attribute: ListedAttribute }>> = tableOf([
  ['tools/list', { member: 'tools', attribute: 'gen_ai.tool.name' }],
  ['prompts/list', { member: 'prompts', attribute: 'gen_ai.prompt.name' }],
]);

export interface SpanEvent {
  name: string;
  timeMs: number;
  attributes: Attributes;
}

/** One finished span, ready for any encoder: ids in hex, times in epoch ms. */
export interface SpanData {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  traceState?: string;
  name: string;
  kind: 'client' | 'server' | 'internal';
  startMs: number;
  endMs: number;
  attributes: Attributes;
  events: SpanEvent[];
  links: { traceId: string; spanId: string }[];
  status: { error: boolean; message?: string };
}

/** What the model makes of the record: spans, and the measurements of the metrics. */
export type Telemetry =
  | { type: 'span'; span: SpanData }
  /** A request and its answer: `client` for the client's requests, `server` for the server's (the client serves them). */
  | { type: 'operation'; side: 'client' | 'server'; seconds: number; attributes: Attributes }
  | { type: 'session'; seconds: number; attributes: Attributes }
  | { type: 'frame'; kind: string; dir: string }
  /** The names a server listed (tools/list, prompts/list): labels the metrics may trust. */
  | { type: 'listed'; attribute: ListedAttribute; names: string[] }
  | { type: 'gap' };

export interface ModelOptions {
  /** gen_ai.tool.call.arguments and .result (opt-in: they may hold what users type). */
  content?: boolean;
  /** Where the traffic ran, when the caller knows (live); otherwise read from the record. */
  place?: SessionPlace;
}

interface OpenSpan {
  span: SpanData;
  side: 'client' | 'server';
  /** HTTP: the exchange that carried the request; what the server sends on its stream belongs to it. */
  exchange?: number;
  /** Its sender cancelled it: no answer was owed (record.md, "Unanswered requests"). */
  cancelled?: boolean;
}

interface SessionState {
  key: string;
  traceId: string;
  spanId: string;
  id: string;
  startMs: number;
  lastMs: number;
  rev?: string;
  open: Map<number, OpenSpan>;
  /** The open request each HTTP exchange carried (exchange to seq). */
  carried: Map<number, number>;
  events: SpanEvent[];
}

// An untimed entry takes the last time seen rather than 0, so that a span never ends before it starts.
const timeOf = (entry: RecordEntry, fallback: number) => entryTime(entry) ?? fallback;

/** The target URL of an HTTP spy's first event: the server behind it. */
function serverOf(target: unknown): SessionPlace['server'] {
  if (typeof target !== 'string') return undefined;
  try {
    const url = new URL(target);
    return { address: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)) };
  } catch {
    return undefined;
  }
}

function jsonOf(value: unknown): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value);
}

/**
 * The OpenTelemetry view of a record, entry by entry, the same live and after the fact: a span per
 * request (ended by its answer), notifications as events of the request they are about, one root span
 * per session, and the measurements of the MCP metrics. Pure: no clock, no I/O; ids come from the record.
 */
export function createTelemetryModel(options: ModelOptions = {}) {
  const sessions = new Map<string, SessionState>();
  let place: SessionPlace = options.place ?? { transport: 'stdio' };
  let lastMs = 0;

  const sessionOf = (name: string, timeMs: number): SessionState => {
    let state = sessions.get(name);
    if (!state) {
      const key = `${name}\u0000${timeMs}`;
      state = {
        key,
        traceId: traceIdOf(key),
        spanId: spanIdOf(key, 'session'),
        id: name,
        startMs: timeMs,
        lastMs: timeMs,
        open: new Map(),
        carried: new Map(),
        events: [],
      };
      sessions.set(name, state);
    }
    return state;
  };

  const common = (state: SessionState): Attributes => {
    const out = sessionAttributes(place, state.rev);
    const id = sessionIdOf(state.id, state.rev);
    if (id !== undefined) out['mcp.session.id'] = id;
    return out;
  };

  const startSpan = (state: SessionState, entry: FrameEntry, message: unknown, timeMs: number) => {
    const side = entry.dir === 'c2s' ? 'client' : 'server';
    const parent = entry.dir === 'c2s' ? remoteParentOf(message ?? messageOf(entry)) : undefined;
    const span: SpanData = {
      traceId: parent?.traceId ?? state.traceId,
      spanId: spanIdOf(state.key, entry.seq),
      parentSpanId: parent?.spanId ?? state.spanId,
      name: spanNameOf(entry),
      kind: side,
      startMs: timeMs,
      endMs: timeMs,
      attributes: { ...common(state), ...requestAttributes(entry) },
      events: [],
      // A span that joins the client's trace keeps a link to its session.
      links: parent ? [{ traceId: state.traceId, spanId: state.spanId }] : [],
      status: { error: false },
    };
    if (parent?.traceState !== undefined) span.traceState = parent.traceState;
    if (options.content && entry.method === 'tools/call') {
      const args = jsonOf(((message ?? messageOf(entry)) as { params?: { arguments?: unknown } } | undefined)?.params?.arguments);
      if (args !== undefined) span.attributes['gen_ai.tool.call.arguments'] = args;
    }
    state.open.set(entry.seq, { span, side, ...(entry.exchange !== undefined ? { exchange: entry.exchange } : {}) });
    if (entry.exchange !== undefined) state.carried.set(entry.exchange, entry.seq);
  };

  const endSpan = (open: OpenSpan, timeMs: number, failure: Failure | undefined): Telemetry[] => {
    const { span } = open;
    span.endMs = Math.max(timeMs, span.startMs);
    if (failure) {
      span.attributes['error.type'] = failure.type;
      if (failure.code !== undefined) span.attributes['rpc.response.status_code'] = failure.code;
      span.status = failure.message === undefined ? { error: true } : { error: true, message: failure.message };
    }
    const seconds = (span.endMs - span.startMs) / 1000;
    return [
      { type: 'span', span },
      {
        type: 'operation',
        side: open.side,
        seconds,
        attributes: pick(span.attributes, open.side === 'client' ? operationMetricKeys : serverOperationMetricKeys),
      },
    ];
  };

  const endSession = (state: SessionState, timeMs: number, why: string): Telemetry[] => {
    sessions.delete(state.id);
    const out: Telemetry[] = [];
    for (const open of state.open.values())
      out.push(
        ...endSpan(
          open,
          timeMs,
          open.cancelled ? { type: 'cancelled', message: 'cancelled by its sender' } : { type: why, message: `no answer before the session ended` },
        ),
      );
    const attributes = common(state);
    const span: SpanData = {
      traceId: state.traceId,
      spanId: state.spanId,
      name: 'mcp-spy session',
      kind: 'internal',
      startMs: state.startMs,
      endMs: Math.max(timeMs, state.startMs),
      attributes,
      events: state.events,
      links: [],
      status: { error: false },
    };
    out.push({ type: 'span', span }, { type: 'session', seconds: (span.endMs - span.startMs) / 1000, attributes: pick(attributes, sessionMetricKeys) });
    return out;
  };

  /** A request the record says is owed no answer: refused by an HTTP status (its error.type), or left by a client that closed its input. */
  const endReleased = (state: SessionState, seq: number, entry: RecordEntry, timeMs: number): Telemetry[] => {
    const open = state.open.get(seq);
    if (!open) return [];
    state.open.delete(seq);
    if (open.exchange !== undefined) state.carried.delete(open.exchange);
    const failure: Failure =
      entry.kind === 'http' && typeof entry.status === 'number'
        ? { type: String(entry.status), message: entry.summary ?? `HTTP ${entry.status}` }
        : { type: 'client_closed', message: 'the client closed its input' };
    return endSpan(open, timeMs, failure);
  };

  const onFrame = (state: SessionState, entry: FrameEntry, message: unknown, timeMs: number): Telemetry[] => {
    if (entry.rev !== undefined) state.rev = entry.rev;
    const out: Telemetry[] = [{ type: 'frame', kind: entry.kind, dir: entry.dir }];
    const listing = entry.kind === 'response' && entry.method !== undefined ? listings[entry.method] : undefined;
    if (listing) {
      const items = pickMember(message ?? messageOf(entry), 'result', listing.member);
      const names = Array.isArray(items) ? items.map((item) => pickMember(item, 'name')).filter((name): name is string => typeof name === 'string') : [];
      if (names.length > 0) out.push({ type: 'listed', attribute: listing.attribute, names });
    }
    if (entry.kind === 'request' && entry.method !== undefined) startSpan(state, entry, message, timeMs);
    else if (entry.kind === 'response' || entry.kind === 'tool-error' || entry.kind === 'protocol-error') {
      const open = entry.related ? state.open.get(entry.related.seq) : undefined;
      if (!open) return out;
      state.open.delete(entry.related!.seq);
      if (open.exchange !== undefined) state.carried.delete(open.exchange);
      const body = message ?? (entry.kind === 'response' && !options.content ? undefined : messageOf(entry));
      if (options.content && entry.kind === 'response' && open.span.attributes['gen_ai.operation.name'] === 'execute_tool') {
        const result = jsonOf((body as { result?: unknown } | undefined)?.result);
        if (result !== undefined) open.span.attributes['gen_ai.tool.call.result'] = result;
      }
      // A tool error's text and a protocol error's message are the peers' words, which may quote
      // what they were sent: on a span only with the content (--otlp-content).
      const failure = failureOf(entry, body);
      out.push(...endSpan(open, timeMs, failure && !options.content ? { ...failure, message: undefined } : failure));
    } else if (entry.kind === 'notification' && entry.method !== undefined) {
      const event: SpanEvent = { name: entry.method, timeMs, attributes: { 'mcp.method.name': entry.method } };
      // The request it names (progress, cancellation), else on HTTP the request whose stream carried it (logging).
      const carrier = entry.exchange !== undefined ? state.carried.get(entry.exchange) : undefined;
      const open = entry.related ? state.open.get(entry.related.seq) : carrier !== undefined ? state.open.get(carrier) : undefined;
      (open ? open.span.events : state.events).push(event);
      if (open && entry.method === 'notifications/cancelled' && entry.related) open.cancelled = true;
    }
    return out;
  };

  return {
    /** Takes one entry (and its parsed message when the caller has it); returns what it completes. */
    add(entry: RecordEntry, message?: unknown): Telemetry[] {
      const timeMs = timeOf(entry, lastMs);
      lastMs = Math.max(lastMs, timeMs);
      if (options.place === undefined && (entry.kind === 'spawn' || entry.kind === 'http') && entry.transport !== undefined) {
        place = { transport: entry.transport, server: serverOf(fieldOf(entry, 'target')) ?? place.server };
      }
      if (entry.kind === 'gap') return [{ type: 'gap' }];
      if (entry.session === undefined) return [];
      // A stdio session begins when its server is started.
      if (entry.kind === 'spawn') sessionOf(entry.session, timeMs);
      if (isFrameEntry(entry)) {
        const state = sessionOf(entry.session, timeMs);
        state.lastMs = timeMs;
        return onFrame(state, entry, message, timeMs);
      }
      const state = sessions.get(entry.session);
      if (!state) return [];
      const released = releasedSeqs(entry);
      if (released.length > 0) return released.flatMap((seq) => endReleased(state, seq, entry, timeMs));
      if (entry.kind === 'exit') return endSession(state, timeMs, 'unanswered');
      if (entry.kind === 'http' && entry.httpMethod === 'DELETE' && typeof entry.status === 'number' && entry.status < 300)
        return endSession(state, timeMs, 'unanswered');
      return [];
    },
    /** Ends every session still open, at the last time it was seen. */
    finish(): Telemetry[] {
      return [...sessions.values()].flatMap((state) => endSession(state, state.lastMs, 'unanswered'));
    },
  };
}

export type TelemetryModel = ReturnType<typeof createTelemetryModel>;
