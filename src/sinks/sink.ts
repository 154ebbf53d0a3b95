import type { ExportConfig } from '../export/export-sink.js';
import type { EntryOf, EventKind, GapEntry, NoteEntry, RecordEntry } from '../record/schema.js';
import type { Line } from './line-encoding.js';
import type { StderrOut } from './stderr-out.js';

/**
 * One place the observed entries go: the record, the human log, the live view, an exporter. Each
 * gets every entry in record order; a sink that fails stops on its own and says so once, and the
 * traffic is not its business.
 */
export interface Sink {
  /**
   * One entry. For a frame that is JSON, `message` is it parsed and `json` its exact text (what
   * the record splices in as `msg`); the entry itself does not hold `msg` while the sinks see it.
   * For a frame cut at the parse limit, `cut` may be the bytes its `raw` holds as text: the record
   * writes them from there rather than from a copy of `raw` (see record/raw-bytes).
   */
  entry(entry: RecordEntry, message?: unknown, json?: Buffer | string, cut?: Buffer): void;
  /**
   * A frame captured and not analysed (the observer is behind), or a span of `frames` of them:
   * `line` is its record line. Only the record writes it; a rendering sink counts it among what it
   * left out.
   */
  captured?(line: Line, frames?: number): void;
  /** Another sink failed: a sink that keeps a lasting copy writes down the gap it left. */
  failed?(gap: GapEntry): void;
  /**
   * The observing is over: a sink that sends elsewhere finishes sending, and may still put in the
   * record what it could not send (the other sinks are open until every sink has ended).
   */
  end?(): Promise<void>;
  /**
   * The observer is behind the traffic (true), or has caught up (false): a sink may leave out, while
   * it is behind, what can be had again from the record (the human log's frame lines).
   */
  behind?(behind: boolean): void;
  /**
   * Marks the end of what this sink was given so far: `reached` is called just before the write that
   * takes it to the file is issued, and what it returns just after. Only the record keeps
   * checkpoints: they tell the forwarding side what the record holds.
   */
  checkpoint?(reached: () => (() => void) | void): void;
  /** What waits to be written, in characters: the observer paces itself on it. */
  backlog(): number;
  /** Resolves once no more than `limit` characters wait. */
  caughtUp(limit: number): Promise<void>;
  /**
   * Resolves once what waits has been written. The sinks are closed only when all have flushed:
   * a sink that fails meanwhile still has its gap written by the others.
   */
  flush(): Promise<void>;
  /** Closes at once, writing what is queued if it is taken without waiting. */
  closeNow(): void;
}

/** What the observing side gives every sink it opens. */
export interface SinkContext {
  /** Problems of the spy itself, said once each on stderr. */
  warn: (message: string) => void;
  /** A new `gap` entry, numbered in the record's sequence, in the stdio spy's session (in none on HTTP); `lost` counts entries. */
  gap(reason: string, lost?: number): GapEntry;
  /** `from` failed: the other sinks that keep a lasting copy write down `gap`. */
  failed(from: Sink, gap: GapEntry): void;
  /** An entry numbered in the record's sequence for one sink's file alone (that file's own story), handed to no sink. */
  own<K extends EventKind>(kind: K, fields: Partial<EntryOf<K>>): EntryOf<K>;
  /** A `note` of the spy itself in the record (what an exporter dropped), in the stdio spy's session (in none on HTTP). */
  note(fields: Partial<NoteEntry>): void;
}

/** Where and how the entries are kept and shown: the record, the log, the live view on stderr. */
export interface SinkOutputs {
  recordPath?: string;
  logPath?: string;
  /** Whether the user named the path (it may then be a link, a FIFO or a device) or it is a default. */
  recordNamed?: boolean;
  logNamed?: boolean;
  /** --allow-readable: a named file others can read takes the traffic all the same. */
  allowReadable?: boolean;
  live: boolean;
  color: boolean;
  /** The terminal's width when stderr is one: each live line fits it. */
  liveWidth?: number;
  /** --otlp, --metrics: the OpenTelemetry exports. */
  export?: ExportConfig;
}

/** Opens one sink on the observer thread. */
export type OpenSink = (outputs: SinkOutputs, context: SinkContext, stderr: StderrOut) => Sink;

/** A kind of sink: whether the outputs ask for it, and its opener, loaded on use (OpenTelemetry's SDK is large). */
export interface SinkKind {
  wanted(outputs: SinkOutputs): boolean;
  load(): Promise<OpenSink>;
}
