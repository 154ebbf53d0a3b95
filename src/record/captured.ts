import { classifyMessage } from '../wire/classify/classify.js';
import { scanEnvelope } from '../wire/classify/envelope-scan.js';
import { createCorrelator, relatedOf, type Correlator } from '../wire/correlate/correlate.js';
import type { Notice } from '../wire/correlate/session-watch.js';
import type { FrameBytes } from '../wire/framing/frame-bytes.js';
import { spanLines } from '../wire/framing/line-framer.js';
import { observeFrame } from '../wire/observe/observe-frame.js';
import { isFrameEntry, splicedText } from './frame-message.js';
import { createRevisionMarks, entryOfObserved } from './record-line.js';
import type { CapturedEntry, FrameEntry, NoteEntry, RecordEntry } from './schema.js';

/** A line of the file as the reader narrowed it: an entry, or a frame captured and not analysed. */
export type LineEntry = RecordEntry | CapturedEntry;

export function isCapturedEntry(entry: LineEntry): entry is CapturedEntry {
  return entry.kind === 'captured';
}

/** The captured frame's bytes as they crossed the wire: its spliced `msg` cut out of its line, its `raw`, or its base64. */
function capturedBytes(entry: CapturedEntry, line: string | undefined): FrameBytes {
  let bytes: Buffer;
  if (typeof entry.rawBase64 === 'string') bytes = Buffer.from(entry.rawBase64, 'base64');
  else if (typeof entry.raw === 'string') bytes = Buffer.from(entry.raw, 'utf8');
  else {
    const text = line === undefined ? undefined : splicedText(line);
    bytes = Buffer.from(text ?? (entry.msg === undefined ? '' : JSON.stringify(entry.msg)), 'utf8');
  }
  const frame: FrameBytes = { bytes, size: entry.bytes, eol: entry.eol ?? '\n' };
  if (entry.truncated) frame.truncated = true;
  return frame;
}

/**
 * Redaction as the spy did it before capturing: the masked message is what was written, with the
 * places masked; a batch's are shared out to its members (`$[i]...` to member i's `$...`).
 */
function maskedAs(paths: string[], batch: boolean) {
  let member = 0;
  return (message: unknown) => {
    if (!batch) return { message, paths };
    const prefix = `$[${member++}]`;
    const own = paths.filter((path) => path.startsWith(prefix)).map((path) => `$${path.slice(prefix.length)}`);
    return own.length > 0 ? { message, paths: own } : undefined;
  };
}

/** A notice as the note event the spy writes after the frame (see observer/recorder.ts). */
function noticeNote(notice: Notice, entries: FrameEntry[], base: Pick<NoteEntry, 'v' | 'seq' | 't' | 'session'>): NoteEntry {
  const note: NoteEntry = { ...base, kind: 'note', notes: [notice.note], text: notice.text };
  if (note.t === undefined) delete note.t;
  if (note.session === undefined) delete note.session;
  const frame = entries.find((entry) => entry.notes?.includes(notice.note));
  if (frame) note.related = { seq: frame.seq, id: frame.id ?? null, method: frame.method ?? '' };
  return note;
}

interface SessionState {
  correlator: Correlator;
  /** It held a captured frame: the reader, not the spy, pairs its requests, so says what is left unanswered. */
  captured: boolean;
  /** Its exit was read: an `unanswered` of the spy's after it is left out, the reader's said instead. */
  ended?: boolean;
  /** Entries added so far (batch members, notes): the session's later seqs move on by as much. */
  shift: number;
}

const timeOf = (entry: LineEntry): number => (entry.t === undefined ? 0 : Date.parse(entry.t));

/**
 * Analyses a record's captured frames as it is read, with the pipeline the spy runs live (framing
 * done, then decoding, classification, correlation, annotation), so every reader sees the entries
 * a fully analysed record holds. To pair a captured answer with a request the spy analysed, every
 * frame of the record feeds a correlator of its session (a parsed `msg` is classified again, not
 * parsed again). A batch becomes one entry per member and a notice a `note` after its frame, as the
 * spy writes them: the entries after them are numbered on (`seq`). A session with captured frames
 * gets its `unanswered` event here, after its `exit`, as the spy would have written it (a record cut
 * before the exit, by a kill or a full disk, has none, as it would not have had); the spy writes none
 * for it, its pairing having missed what it only captured.
 */
export function createCapturedAnalysis() {
  const sessions = new Map<string | undefined, SessionState>();
  /**
   * The sessions of stdio runs (named by their spawn), the only ones the spy captures frames in: the
   * frames of other sessions (an HTTP spy's, each stateless exchange one) are not followed, so a
   * reader keeps nothing for them.
   */
  const stdioRuns = new Set<string | undefined>();
  const revisions = createRevisionMarks();

  const stateOf = (session: string | undefined): SessionState => {
    let state = sessions.get(session);
    if (!state) sessions.set(session, (state = { correlator: createCorrelator(), captured: false, shift: 0 }));
    return state;
  };

  /** Feeds an analysed frame to its session's correlator, as the spy's own did when it wrote it. */
  function follow(entry: FrameEntry) {
    if (!stdioRuns.has(entry.session)) return;
    // A cut frame was paired by the envelope its kept start holds.
    const message =
      entry.msg === undefined
        ? entry.truncated && typeof entry.raw === 'string'
          ? scanEnvelope(entry.raw).message
          : undefined
        : Array.isArray(entry.msg) && entry.batch
          ? entry.msg[0]
          : entry.msg;
    const state = stateOf(entry.session);
    if (message !== undefined) {
      state.correlator.observe({ dir: entry.dir, classified: classifyMessage(message), message, seq: entry.seq, timeMs: timeOf(entry) });
      state.correlator.takeNotices();
    }
    // What revision the spy had marked: the reader's marks go on from it (the entry is left as written).
    if (entry.rev !== undefined) revisions.mark({ session: entry.session, rev: entry.rev } as FrameEntry);
  }

  function analyse(entry: CapturedEntry, line: string | undefined): RecordEntry[] {
    const state = stateOf(entry.session);
    state.captured = true;
    let seq = entry.seq + state.shift - 1;
    // The envelope in the order the spy writes it: v, seq, t, session.
    const envelopeOf = (at: number) => {
      const envelope: NoteEntry = { v: entry.v, seq: at, t: entry.t, session: entry.session } as NoteEntry;
      if (entry.t === undefined) delete envelope.t;
      if (entry.session === undefined) delete envelope.session;
      return envelope;
    };
    // The marker has the seq of the entry before it: the notes it stands for are numbered after that.
    if (entry.closed) return closed(state, envelopeOf, () => ++seq + 1);
    if (entry.frames !== undefined) {
      // A span of whole lines: each line not empty is a frame, analysed in turn, numbered on.
      const out: RecordEntry[] = [];
      for (const frame of spanLines(capturedBytes(entry, line).bytes))
        if (frame.size > 0) out.push(...analyseFrame(state, entry, frame, () => ++seq, envelopeOf));
      state.shift += out.length - entry.frames;
      return out;
    }
    const out = analyseFrame(state, entry, capturedBytes(entry, line), () => ++seq, envelopeOf);
    state.shift += out.length - 1;
    return out;
  }

  /** One captured frame analysed: its entries (a batch's members), then the notes it gave rise to. */
  function analyseFrame(
    state: SessionState,
    entry: CapturedEntry,
    frame: FrameBytes,
    nextSeq: () => number,
    envelopeOf: (at: number) => NoteEntry,
  ): RecordEntry[] {
    const results = observeFrame(frame, {
      dir: entry.dir,
      correlator: state.correlator,
      nextSeq,
      timeMs: timeOf(entry),
      transport: 'stdio',
      ...(entry.redacted && entry.msg !== undefined ? { redact: maskedAs(entry.redacted, frame.bytes[0] === 0x5b) } : {}),
    });
    const text = frame.bytes.toString('utf8');
    const frames = results.map((observed) => {
      const analysed = entryOfObserved(envelopeOf(observed.seq) as unknown as FrameEntry, observed, text, revisions.mark);
      // Text that was no JSON, with a known secret masked in it.
      if (entry.redacted && analysed.redacted === undefined && entry.msg === undefined) analysed.redacted = entry.redacted;
      // The first member of a batch holds the whole batch as `msg`, as its line in the record would.
      if (analysed.batch?.index === 0 && observed.json !== undefined) analysed.msg = JSON.parse(observed.json.toString());
      return analysed;
    });
    const out: RecordEntry[] = [...frames];
    for (const notice of state.correlator.takeNotices() ?? []) out.push(noticeNote(notice, frames, envelopeOf(nextSeq())));
    return out;
  }

  /** Where the client closed its input in a capturing session: the notes the spy writes there (see observer/recorder.ts). */
  function closed(state: SessionState, envelopeOf: (seq: number) => NoteEntry, nextSeq: () => number): RecordEntry[] {
    const out: RecordEntry[] = [];
    for (const request of state.correlator.clientClosed()) {
      const text = `the client closed its input without answering ${request.method} #${JSON.stringify(request.id)}`;
      out.push({ ...envelopeOf(nextSeq()), kind: 'note', notes: ['client-closed'], text, related: relatedOf(request) });
    }
    state.shift += out.length;
    return out;
  }

  /** The requests a session with captured frames left unanswered, as the spy says them after its exit. */
  function unanswered(session: string | undefined, state: SessionState, at: { seq: number; t?: string }): RecordEntry[] {
    if (session !== undefined) revisions.forget(session);
    if (!state.captured) {
      sessions.delete(session);
      stdioRuns.delete(session);
      return [];
    }
    state.ended = true;
    stdioRuns.delete(session);
    const pending = state.correlator.unanswered();
    // What is kept of an ended session is its numbering.
    state.correlator = createCorrelator();
    if (pending.length === 0) return [];
    const requests = pending.map(({ seq, dir, id, method, tool }) => (tool === undefined ? { seq, dir, id, method } : { seq, dir, id, method, tool }));
    const event: RecordEntry = { v: 2, seq: at.seq, t: at.t, session, kind: 'unanswered', requests, notes: ['unanswered-request'] };
    if (at.t === undefined) delete event.t;
    if (session === undefined) delete event.session;
    return [event];
  }

  return {
    /** The entries a line stands for: itself, renumbered, or the analysis of a captured frame. `line` is its text. */
    read(entry: LineEntry, line?: string): RecordEntry[] {
      // Each session is numbered on by what was added in it (several spies may append to one file at once).
      if (isCapturedEntry(entry)) return analyse(entry, line);
      const state = sessions.get(entry.session);
      // The spy's pairing missed the captured frames: the reader's stands instead.
      if (entry.kind === 'unanswered' && state?.captured) {
        state.shift--;
        return [];
      }
      if (entry.kind === 'spawn' && entry.transport === 'stdio') stdioRuns.add(entry.session);
      if (state && state.shift !== 0) entry.seq += state.shift;
      if (isFrameEntry(entry)) follow(entry);
      else if (entry.kind === 'note' && entry.notes.includes('client-closed') && state) state.correlator.clientClosed();
      if (entry.kind === 'exit' && state && !state.ended) {
        const after = unanswered(entry.session, state, { seq: entry.seq + 1, t: entry.t });
        state.shift += after.length;
        return [entry, ...after];
      }
      return [entry];
    },
  };
}

export type CapturedAnalysis = ReturnType<typeof createCapturedAnalysis>;

/** One captured frame analysed alone (a reader that reads a single line again): its first entry (none for a `closed` marker). */
export function analyseAlone(entry: CapturedEntry, line: string): RecordEntry | undefined {
  return createCapturedAnalysis().read(entry, line)[0];
}
