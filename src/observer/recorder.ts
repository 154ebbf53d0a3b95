import { isFrameEntry } from '../record/frame-message.js';
import { capturedClose, capturedPieces, capturedSpanLine, createRevisionMarks } from '../record/record-line.js';
import {
  RECORD_VERSION,
  type EntryOf,
  type Envelope,
  type EventKind,
  type FrameEntry,
  type GapEntry,
  type NoteEntry,
  type RecordEntry,
} from '../record/schema.js';
import type { Sink, SinkContext } from '../sinks/sink.js';
import { createCorrelator, relatedOf, type Correlator } from '../wire/correlate/correlate.js';
import type { Notice } from '../wire/correlate/session-watch.js';
import { isExchangeSession } from '../wire/http/exchange-sessions.js';
import type { Direction } from '../wire/classify/kinds.js';
import type { JsonRpcId } from '../protocol/jsonrpc.js';
import { nowMs } from '../wire/framing/now.js';
import type { ParamHeader } from '../wire/correlate/param-headers.js';
import type { ToolPins } from '../wire/correlate/tool-pin.js';
import type { FrameBytes } from '../wire/framing/frame-bytes.js';
import { observeFrame, type FrameObservation } from '../wire/observe/observe-frame.js';
import { createSecrets, redactMessage } from '../wire/redact/redact-frame.js';
import { mentionsSecretName } from '../wire/redact/secret-names.js';
import { spanLines } from '../wire/framing/line-framer.js';

export interface RecorderOptions {
  /** Open where the entries go (the record, the log, the live view, exporters), in the order each entry reaches them. */
  sinks: ((context: SinkContext) => Sink)[];
  /** Problems of the spy itself, said once each on stderr. */
  warn: (message: string) => void;
  transport: 'stdio' | 'http';
  /** JSONPaths (--redact) whose values are masked in every frame before it is written. */
  redactPaths?: string[];
  /** Pinned tool definitions (--baseline), handed to each session's correlator. */
  pins?: ToolPins;
  /** Whether members with a secret's name (see wire/redact/secret-names) are masked: true unless --no-default-redact. */
  redactNames?: boolean;
  /** The stdio spy's one session: the spy's own entries (a file's gap, an exporter's note) belong to it too. */
  session?: string;
}

let lastStampMs = -1;
let lastStamp = '';

/** ISO 8601 of a time in ms; frames come in bursts within one millisecond, so the last is kept. */
function isoOf(timeMs: number): string {
  const ms = Math.floor(timeMs);
  if (ms !== lastStampMs) {
    lastStampMs = ms;
    lastStamp = new Date(ms).toISOString();
  }
  return lastStamp;
}

/** An entry with transport facts: they go after the annotations, before the bytes. */
function withFields(base: object, observation: FrameObservation, fields: Partial<FrameEntry>): FrameEntry {
  const { raw, rawBase64, ...annotations } = observation;
  const entry = Object.assign(base, annotations, fields) as FrameEntry;
  if (raw !== undefined) entry.raw = raw;
  if (rawBase64 !== undefined) entry.rawBase64 = rawBase64;
  return entry;
}

/** A notice as a note event, related to the frame whose note it explains. */
function noticeFields(notice: Notice, entries: FrameEntry[]): Partial<NoteEntry> {
  const fields: Partial<NoteEntry> = { notes: [notice.note], text: notice.text };
  const frame = entries.find((entry) => entry.notes?.includes(notice.note));
  if (frame) fields.related = { seq: frame.seq, id: frame.id ?? null, method: frame.method ?? '' };
  return fields;
}

/**
 * The observing side of a spy: numbers entries, runs frames through the pipeline, and hands each
 * entry to the sinks. A sink that fails stops on its own; the traffic is not its business.
 */
export function createRecorder(options: RecorderOptions) {
  let seq = 0;
  const correlators = new Map<string, Correlator>();
  /** What the listed tools declare for Mcp-Param-* headers: one spy reaches one server, whichever session listed them. */
  const paramHeaders = new Map<string, ParamHeader[]>();
  const revisions = createRevisionMarks();
  const redactPaths = options.redactPaths ?? [];
  const secrets = createSecrets();
  const redactNames = options.redactNames === true;
  const redact = (message: unknown, raw: string) => redactMessage(message, raw, redactPaths, secrets, redactNames);
  const scrub = (text: string) => (secrets.size > 0 ? secrets.scrub(text) : text);
  const masking = { redact, scrub };
  /** Whether anything may be masked in a frame: secret names, --redact, or a secret met before. */
  const masksWanted = () => redactNames || redactPaths.length > 0 || secrets.size > 0;

  const envelope = (session: string | undefined, timeMs: number): Envelope =>
    session === undefined ? { v: RECORD_VERSION, seq: 0, t: isoOf(timeMs) } : { v: RECORD_VERSION, seq: 0, t: isoOf(timeMs), session };

  const gapLine = (session: string | undefined, reason: string, lost?: number) => {
    const gap: GapEntry = { ...envelope(session, nowMs()), seq: ++seq, kind: 'gap', reason };
    if (lost !== undefined) gap.lost = lost;
    return gap;
  };

  const sinks: Sink[] = [];
  const context: SinkContext = {
    warn: options.warn,
    gap: (reason, lost) => ({ ...gapLine(options.session, reason, lost), ...(lost === undefined ? {} : { unit: 'entries' as const }) }),
    own: (kind, fields) => ({ ...envelope(options.session, nowMs()), seq: ++seq, kind, ...fields }) as EntryOf<typeof kind>,
    failed(from, gap) {
      for (const sink of sinks) if (sink !== from) sink.failed?.(gap);
    },
    note: (fields) => recorder.event(options.session, 'note', fields),
  };
  // One by one: a sink that fails as it opens tells those opened before it.
  for (const open of options.sinks) sinks.push(open(context));

  /** Sessions with a frame captured and not analysed: their pairing is the readers' from then on (see record/captured.ts). */
  const capturing = new Set<string>();

  function emit(entry: RecordEntry, message?: unknown, json?: Buffer | string, cut?: Buffer) {
    for (const sink of sinks) sink.entry(entry, message, json, cut);
    // In memory a frame's entry reads as it will from the record: its message as `msg`.
    if (json !== undefined && isFrameEntry(entry)) entry.msg = message;
  }

  /** A request pending in another stateless exchange (its cancellation came in an exchange of its own). */
  function pendingInExchanges(asking: string, dir: Direction, id: JsonRpcId) {
    for (const [session, correlator] of correlators) {
      if (session === asking || !isExchangeSession(session)) continue;
      const request = correlator.pendingRequest(dir, id);
      if (request) return request;
    }
    return undefined;
  }

  function correlatorOf(session: string): Correlator {
    let correlator = correlators.get(session);
    if (!correlator) {
      correlator = isExchangeSession(session)
        ? createCorrelator({ pins: options.pins, paramHeaders, elsewhere: (dir, id) => pendingInExchanges(session, dir, id) })
        : createCorrelator({ pins: options.pins, paramHeaders });
      correlators.set(session, correlator);
    }
    return correlator;
  }

  const recorder = {
    /**
     * Observes one frame, complete at `timeMs`; returns its entries (several for a batch).
     * `fields` adds what the transport knows of it (HTTP: the MCP headers, the SSE event id).
     */
    frame(session: string, dir: Direction, frame: FrameBytes, timeMs = nowMs(), fields?: Partial<FrameEntry>): FrameEntry[] {
      const correlator = correlatorOf(session);
      const results = observeFrame(frame, {
        dir,
        correlator,
        nextSeq: () => ++seq,
        timeMs,
        transport: options.transport,
        ...(masksWanted() ? { redact } : {}),
        // Without a secret known there is nothing to scrub: a cut frame's bytes may then be written as they came.
        ...(secrets.size > 0 ? { scrub } : {}),
        writesCutBytes: true,
      });
      const entries = results.map(({ seq: entrySeq, observation, message, json, cut }) => {
        const entry = (
          fields ? withFields(envelope(session, timeMs), observation, fields) : Object.assign(envelope(session, timeMs), observation)
        ) as FrameEntry;
        entry.seq = entrySeq;
        revisions.mark(entry);
        emit(entry, message, json, cut);
        return entry;
      });
      const notices = correlator.takeNotices();
      if (notices) for (const notice of notices) this.event(session, 'note', noticeFields(notice, entries), timeMs);
      return entries;
    },
    /**
     * Captures one frame without analysing it (the observer is pressed for time, and the frame may
     * not go in a span): its direction, time, size and bytes (masked as an analysed frame's would
     * be), one seq. From then on the session's frames are all captured: the pairing the spy would do
     * lacks this one (see docs/record.md, "Captured frames").
     */
    capture(session: string, dir: Direction, frame: FrameBytes, timeMs = nowMs()) {
      capturing.add(session);
      const head = envelope(session, timeMs);
      head.seq = ++seq;
      const line = capturedPieces(head, dir, frame, masksWanted() ? masking : {});
      for (const sink of sinks) sink.captured?.(line);
    },
    /**
     * Captures a span of whole lines at once (the observer is pressed for time): one record line
     * for all of them, their bytes verbatim, a seq for each frame. Where something in it may be
     * masked (a secret's name, a known secret, `--redact`), each frame is captured on its own and
     * masked instead.
     */
    captureSpan(session: string, dir: Direction, span: Buffer, frames: number, timeMs = nowMs()) {
      if (frames === 0) return;
      const maskable = redactPaths.length > 0 || (redactNames && mentionsSecretName(span)) || (secrets.size > 0 && secrets.mayHold(span.toString('utf8')));
      if (maskable) {
        for (const line of spanLines(span)) if (line.size > 0) this.capture(session, dir, line, timeMs);
        return;
      }
      capturing.add(session);
      const head = envelope(session, timeMs);
      head.seq = seq + 1;
      seq += frames;
      const line = capturedSpanLine(head, dir, span, frames);
      for (const sink of sinks) sink.captured?.(line, frames);
    },
    /** Whether `session` has captured frames: its frames are to be captured from then on. */
    capturing: (session: string) => capturing.has(session),
    /** Records an event that is not a frame. */
    event<K extends EventKind>(session: string | undefined, kind: K, fields: Partial<EntryOf<K>> = {}, timeMs = nowMs()): EntryOf<K> {
      const entry = { ...envelope(session, timeMs), seq: ++seq, kind, ...fields } as RecordEntry;
      // A server may log what it was given (a key passed as a tool argument) on stderr.
      if (entry.kind === 'stderr' && typeof entry.raw === 'string' && scrub(entry.raw) !== entry.raw) {
        entry.raw = scrub(entry.raw);
        entry.redacted = ['$'];
      }
      emit(entry);
      return entry as EntryOf<K>;
    },
    correlator: correlatorOf,
    /**
     * The client closed its input (stdio): each server request it leaves unanswered, with nothing
     * sent after it, is said in a `client-closed` note, so readers of the record owe it nothing either.
     */
    clientClosed(session: string, timeMs = nowMs()) {
      // Its server requests are paired by the readers: they are told where the client closed.
      if (capturing.has(session)) {
        // Numbered as the entry before it: readers put the notes it stands for in its place, if any.
        const line = capturedClose({ ...envelope(session, timeMs), seq });
        for (const sink of sinks) sink.captured?.(line, 0);
        return;
      }
      for (const request of correlatorOf(session).clientClosed()) {
        const text = `the client closed its input without answering ${request.method} #${JSON.stringify(request.id)}`;
        this.event(session, 'note', { notes: ['client-closed'], text, related: relatedOf(request) }, timeMs);
      }
    },
    /** Secrets met outside the frames (an OAuth token): masked wherever they turn up later. */
    secrets,
    /** Ends a session at `timeMs` (its end, not when the spy got round to it): its pending requests become one `unanswered` event. */
    endSession(session: string, timeMs = nowMs()) {
      const correlator = correlators.get(session);
      // A session with captured frames: the readers, who pair them, say what was left unanswered.
      const pending = capturing.delete(session) ? [] : (correlator?.unanswered() ?? []);
      if (pending.length > 0) {
        const requests = pending.map(({ seq: requestSeq, dir, id, method, tool }) =>
          tool === undefined ? { seq: requestSeq, dir, id, method } : { seq: requestSeq, dir, id, method, tool },
        );
        this.event(session, 'unanswered', { requests, notes: ['unanswered-request'] }, timeMs);
      }
      correlators.delete(session);
      revisions.forget(session);
    },
    /** The observer is behind the traffic, or caught up: sinks may leave out what the record holds anyway. */
    behind(on: boolean) {
      for (const sink of sinks) sink.behind?.(on);
    },
    /** `reached` is called as every entry given so far goes to the record (never, without a record): see `Sink.checkpoint`. */
    checkpoint(reached: () => (() => void) | void) {
      for (const sink of sinks) sink.checkpoint?.(reached);
    },
    /** What waits to be written by the sinks, in characters: the observer paces itself on this. */
    backlog(): number {
      let waiting = 0;
      for (const sink of sinks) waiting += sink.backlog();
      return waiting;
    },
    /** Resolves once the sinks have no more than `limit` characters waiting: the observer paces itself on it. */
    async caughtUp(limit: number): Promise<void> {
      await Promise.all(sinks.map((sink) => sink.caughtUp(limit)));
    },
    /** The last sequence number given. */
    lastSeq: () => seq,
    /** The observing is over: the sinks that send elsewhere finish, while every sink is still open. */
    async end() {
      await Promise.all(sinks.map((sink) => sink.end?.()));
    },
    async close() {
      await Promise.all(sinks.map((sink) => sink.flush()));
      for (const sink of sinks) sink.closeNow();
    },
    /** Closes the sinks at once, writing what is queued if they take it without waiting. */
    closeNow() {
      for (const sink of sinks) sink.closeNow();
    },
  };
  return recorder;
}

export type Recorder = ReturnType<typeof createRecorder>;
