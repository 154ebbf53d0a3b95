import { openLineSink, type LineSink } from '../record/line-sink.js';
import { splicedLine } from '../record/record-line.js';
import { RECORD_VERSION, type EventKind, type RecordEntry } from '../record/schema.js';
import { renderLine } from '../render/render-line.js';
import { isRoutine, isShownLive } from '../render/visibility.js';
import { createCorrelator, type Correlator } from '../wire/correlate.js';
import type { Direction } from '../wire/kinds.js';
import type { ToolPins } from '../wire/tool-pin.js';
import { observeFrame, type FrameBytes, type FrameObservation } from '../wire/observe.js';
import { createSecrets, redactMessage } from '../wire/redact-frame.js';

export interface RecorderOptions {
  recordPath?: string;
  logPath?: string;
  /** Whether the user named the path (it may then be a link, a FIFO or a device). */
  recordNamed?: boolean;
  logNamed?: boolean;
  /** The live view: gets every entry worth showing (see isShownLive). */
  live?: (entry: RecordEntry, message?: unknown) => void;
  /** Problems of the spy itself, said once each on stderr. */
  warn: (message: string) => void;
  transport: 'stdio' | 'http';
  /** JSONPaths (--redact) whose values are masked in every frame before it is written. */
  redactPaths?: string[];
  /** Pinned tool definitions (--baseline), handed to each session's correlator. */
  pins?: ToolPins;
  /** More readers of every entry, after redaction (the OpenTelemetry exports). */
  sinks?: { entry(entry: RecordEntry, message?: unknown): void }[];
}

export function nowMs(): number {
  return performance.timeOrigin + performance.now();
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
function withFields(base: object, observation: FrameObservation, fields: Partial<RecordEntry>): RecordEntry {
  const { raw, rawBase64, ...annotations } = observation;
  const entry = Object.assign(base, annotations, fields) as RecordEntry;
  if (raw !== undefined) entry.raw = raw;
  if (rawBase64 !== undefined) entry.rawBase64 = rawBase64;
  return entry;
}

/**
 * The observing side of a spy: numbers entries, runs frames through the pipeline, and writes the
 * record and the human log. A sink that fails stops on its own; the traffic is not its business.
 */
export function createRecorder(options: RecorderOptions) {
  let seq = 0;
  const correlators = new Map<string, Correlator>();
  const lastRevision = new Map<string, string>();
  const sinks: { record?: LineSink; log?: LineSink } = {};
  const redactPaths = options.redactPaths ?? [];
  const secrets = createSecrets();
  const redact = (message: unknown, raw: string) => redactMessage(message, raw, redactPaths, secrets);
  const scrub = (text: string) => (secrets.size > 0 ? secrets.scrub(text) : text);

  const envelope = (session: string | undefined, timeMs: number): Pick<RecordEntry, 'v' | 'seq' | 't' | 'session'> =>
    session === undefined
      ? { v: RECORD_VERSION, seq: 0, t: isoOf(timeMs) }
      : { v: RECORD_VERSION, seq: 0, t: isoOf(timeMs), session };

  const gapLine = (session: string | undefined, reason: string, lost?: number) => {
    const gap: RecordEntry = { ...envelope(session, nowMs()), seq: ++seq, kind: 'gap', reason };
    if (lost !== undefined) gap.lost = lost;
    return gap;
  };

  const lineOf = (name: 'record' | 'log', entry: RecordEntry) => (name === 'record' ? `${JSON.stringify(entry)}\n` : `${renderLine(entry)}\n`);
  const openSink = (name: 'record' | 'log', path: string, named: boolean, other: () => LineSink | undefined) =>
    openLineSink(path, {
      named,
      onWarning: options.warn,
      onReopened: () => {
        options.warn(`${name} ${path} was deleted while the spy ran; it was started anew`);
        return lineOf(name, gapLine(undefined, `${name} ${path} was deleted while the spy ran; the entries before this one went with it`));
      },
      onError: (error) => {
        options.warn(`cannot write ${name} ${path}: ${error.message}; the traffic keeps flowing, the ${name} stops here`);
        const gap = gapLine(undefined, `${name} ${path} failed: ${error.code ?? error.message}`);
        const sink = other();
        if (sink) sink.write(lineOf(name === 'record' ? 'log' : 'record', gap));
      },
      onDropped: (count) => {
        const gap = gapLine(undefined, `${name} fell behind the traffic; entries dropped`, count);
        options.warn(`the ${name} fell behind; ${count} entries dropped (a gap event marks the place)`);
        return lineOf(name, gap);
      },
    });

  if (options.recordPath) sinks.record = openSink('record', options.recordPath, options.recordNamed ?? false, () => sinks.log);
  if (options.logPath) sinks.log = openSink('log', options.logPath, options.logNamed ?? false, () => sinks.record);

  function emit(entry: RecordEntry, message?: unknown, json?: Buffer | string) {
    if (sinks.record) sinks.record.write(json === undefined ? `${JSON.stringify(entry)}\n` : splicedLine(entry, json));
    // In memory a frame's entry reads as it will from the record: its message as `msg`.
    if (json !== undefined) entry.msg = message;
    if (sinks.log && !isRoutine(entry)) sinks.log.write(`${renderLine(entry, { message })}\n`);
    if (isShownLive(entry)) options.live?.(entry, message);
    if (options.sinks) for (const sink of options.sinks) sink.entry(entry, message);
  }

  function correlatorOf(session: string): Correlator {
    let correlator = correlators.get(session);
    if (!correlator) {
      correlator = createCorrelator({ pins: options.pins });
      correlators.set(session, correlator);
    }
    return correlator;
  }

  return {
    /**
     * Observes one frame, complete at `timeMs`; returns its entries (several for a batch).
     * `fields` adds what the transport knows of it (HTTP: the MCP headers, the SSE event id).
     */
    frame(session: string, dir: Direction, frame: FrameBytes, timeMs = nowMs(), fields?: Partial<RecordEntry>): RecordEntry[] {
      const results = observeFrame(frame, {
        dir,
        correlator: correlatorOf(session),
        nextSeq: () => ++seq,
        timeMs,
        transport: options.transport,
        ...(redactPaths.length > 0 || secrets.size > 0 ? { redact, scrub } : {}),
      });
      return results.map(({ seq: entrySeq, observation, message, json }) => {
        const entry = (fields ? withFields(envelope(session, timeMs), observation, fields) : Object.assign(envelope(session, timeMs), observation)) as RecordEntry;
        entry.seq = entrySeq;
        if (entry.rev !== undefined && lastRevision.get(session) !== entry.rev) {
          lastRevision.set(session, entry.rev);
          entry.revChanged = true;
        }
        emit(entry, message, json);
        return entry;
      });
    },
    /** Records an event that is not a frame. */
    event(session: string | undefined, kind: EventKind, fields: Partial<RecordEntry> = {}, timeMs = nowMs()): RecordEntry {
      const entry: RecordEntry = { ...envelope(session, timeMs), seq: ++seq, kind, ...fields };
      // A server may log what it was given (a key passed as a tool argument) on stderr.
      if (typeof entry.raw === 'string' && scrub(entry.raw) !== entry.raw) {
        entry.raw = scrub(entry.raw);
        entry.redacted = ['$'];
      }
      emit(entry);
      return entry;
    },
    correlator: correlatorOf,
    /** Secrets met outside the frames (an OAuth token): masked wherever they turn up later. */
    secrets,
    /** Ends a session at `timeMs` (its end, not when the spy got round to it): its pending requests become one `unanswered` event. */
    endSession(session: string, timeMs = nowMs()) {
      const correlator = correlators.get(session);
      const pending = correlator?.unanswered() ?? [];
      if (pending.length > 0) {
        const requests = pending.map(({ seq: requestSeq, dir, id, method, tool }) =>
          tool === undefined ? { seq: requestSeq, dir, id, method } : { seq: requestSeq, dir, id, method, tool },
        );
        this.event(session, 'unanswered', { requests, notes: ['unanswered-request'] }, timeMs);
      }
      correlators.delete(session);
      lastRevision.delete(session);
    },
    /** What waits to be written to the files, in characters: the observer paces itself on this. */
    backlog(): number {
      return (sinks.record?.queued ?? 0) + (sinks.log?.queued ?? 0);
    },
    /** Resolves once the files have no more than `limit` characters waiting: the observer paces itself on it. */
    async caughtUp(limit: number): Promise<void> {
      await Promise.all([sinks.record?.whenBelow(limit), sinks.log?.whenBelow(limit)]);
    },
    /** The last sequence number given. */
    lastSeq: () => seq,
    async close() {
      await Promise.all([sinks.record?.flush(), sinks.log?.flush()]);
      sinks.record?.closeSync();
      sinks.log?.closeSync();
    },
    /** Closes the files at once, writing what is queued if they take it without waiting. */
    closeNow() {
      sinks.record?.closeSync();
      sinks.log?.closeSync();
    },
  };
}

export type Recorder = ReturnType<typeof createRecorder>;
