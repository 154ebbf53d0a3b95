import { isUtf8 } from 'node:buffer';
import type { FrameEntry, StderrEntry } from '../../record/schema.js';
import { createLineFramer, type LineFrame } from '../../wire/framing/line-framer.js';
import { defaultMaxLine } from '../../wire/framing/limits.js';
import { causeInWords } from '../channel/finish-cause.js';
import type { Recorder } from '../recorder.js';
import type { StdioMessage, StdioObserverConfig, StdioStream } from './stdio-messages.js';
import type { SpillPlace } from '../channel/spill.js';

const streams = ['c2s', 's2c', 'stderr'] as const;
/**
 * The most bytes one span of captured lines holds (a chunk and the line it finishes): its record
 * line, in base64 (4 characters for 3 bytes) and with room for its fields, stays within what
 * readers read by default, so a frame at the default parse limit fits in a span. Lines past the
 * parse limit never go in a span; a frame in a larger span (a parse limit raised past some 24 MiB)
 * is captured on its own.
 */
const spanLimit = Math.floor((defaultMaxLine - 64 * 1024) / 4) * 3;
/** Lines observed between two looks at the time left: a chunk of 3-byte lines holds thousands. */
const linesPerLook = 256;

function stderrEntry(line: LineFrame): Partial<StderrEntry> {
  const entry: Partial<StderrEntry> = { bytes: line.size };
  if (line.eol !== '\n') entry.eol = line.eol;
  if (line.truncated) entry.truncated = true;
  if (isUtf8(line.bytes)) entry.raw = line.bytes.toString('utf8');
  else entry.rawBase64 = line.bytes.toString('base64');
  return entry;
}

/** A loss not yet written: its gap waits until the stream is back at a line boundary, so it counts every byte. */
interface PendingGap {
  t: number;
  lost: number;
  reason: string;
}

/**
 * The observer thread's side of the stdio spy: frames each stream into lines and records them.
 * `cause` says what cut the finishing short, once it has been (--drain-timeout, or a stop signal).
 */
export function observeStdio(
  config: StdioObserverConfig,
  recorder: Recorder,
  cause: () => string = () => '--drain-timeout',
  readSpill: (place: SpillPlace, overdue: () => boolean) => Buffer | undefined = () => undefined,
) {
  const { session } = config;
  const exitingReason = (stream: StdioStream) => `the spy was exiting ${causeInWords(cause())}; ${stream} bytes were forwarded but not recorded`;
  const framers = {
    c2s: createLineFramer(config.maxFrame),
    s2c: createLineFramer(config.maxFrame),
    stderr: createLineFramer(config.maxFrame),
  };
  const gaps: Record<StdioStream, PendingGap | undefined> = { c2s: undefined, s2c: undefined, stderr: undefined };
  /** Bytes of each stream given to the recorder, in lines or gaps: what the record will account for. */
  const recorded = [0, 0, 0];
  const streamIndex: Record<StdioStream, number> = { c2s: 0, s2c: 1, stderr: 2 };
  /** A fault rule's marks for the next frame of each direction. */
  const marks: Record<StdioStream, Partial<FrameEntry> | undefined> = { c2s: undefined, s2c: undefined, stderr: undefined };
  // Behind the traffic, whole lines are captured rather than analysed (readers analyse them), so
  // they are kept rather than lost; not where every frame's analysis is needed (fault marks, exports).
  const captureMode = config.capture ?? 'never';

  /**
   * Captures the whole lines a chunk of a direction completes, in one span, when the observer is
   * pressed for time (far behind the traffic, or finishing out of time; see serve-channel), or the
   * session already has captured frames: from the first, the pairing of requests and answers is
   * the readers'. With `always`, every chunk. False when the chunk is for analysis.
   */
  function capture(stream: StdioStream, data: Buffer, t: number, pressed: () => boolean): boolean {
    if (captureMode === 'never' || stream === 'stderr' || gaps[stream]) return false;
    if (captureMode === 'pressed' && !recorder.capturing(session) && !pressed()) return false;
    const span = framers[stream].pushSpan(data, spanLimit);
    if (!span) return false;
    recorded[streamIndex[stream]]! += span.bytes.length;
    recorder.captureSpan(session, stream, span.bytes, span.frames, t);
    return true;
  }

  function lose(stream: StdioStream, t: number, bytes: number, reason: string) {
    const framer = framers[stream];
    if (!framer.resyncing) framer.resync();
    const gap = (gaps[stream] ??= { t, lost: 0, reason });
    gap.lost += bytes + framer.takeDiscarded();
  }

  function writeGap(stream: StdioStream) {
    const gap = gaps[stream];
    if (!gap) return;
    gaps[stream] = undefined;
    const lost = gap.lost + framers[stream].takeDiscarded();
    recorded[streamIndex[stream]]! += lost;
    recorder.event(session, 'gap', { reason: gap.reason, stream, lost }, gap.t);
  }

  /**
   * Records the lines a chunk completed. Once the time to finish has run out, the rest of them
   * are counted in a gap instead: a chunk of tiny lines is thousands of entries.
   */
  function lines(stream: StdioStream, found: LineFrame[], t: number, overdue?: () => boolean) {
    if (gaps[stream] && !framers[stream].resyncing) writeGap(stream);
    const index = streamIndex[stream];
    for (let at = 0; at < found.length; at++) {
      if (overdue && at % linesPerLook === linesPerLook - 1 && overdue()) {
        let rest = 0;
        for (const line of found.slice(at)) rest += line.size + line.eol.length;
        return lose(stream, t, rest, exitingReason(stream));
      }
      const line = found[at]!;
      recorded[index]! += line.size + line.eol.length;
      if (stream === 'stderr') recorder.event(session, 'stderr', stderrEntry(line), t);
      else if (line.size > 0 || line.truncated) {
        const mark = marks[stream];
        marks[stream] = undefined;
        // Once a session has captured frames, all its frames are (a cut line cannot go in a span).
        if (recorder.capturing(session)) recorder.capture(session, stream, line, t);
        else recorder.frame(session, stream, line, t, mark);
      }
    }
  }

  function chunk(stream: StdioStream, data: Buffer, t: number, overdue: () => boolean, pressed: () => boolean) {
    if (!capture(stream, data, t, pressed)) lines(stream, framers[stream].push(data), t, overdue);
  }

  const handlers: { [K in StdioMessage['type']]: (message: Extract<StdioMessage, { type: K }>, overdue: () => boolean, pressed: () => boolean) => void } = {
    chunk: (m, overdue, pressed) => chunk(m.stream, Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength), m.t, overdue, pressed),
    spilled: (m, overdue, pressed) => {
      const data = readSpill(m.spilled, overdue);
      if (data) chunk(m.stream, data, m.t, overdue, pressed);
      else
        lose(
          m.stream,
          m.t,
          m.spilled.length,
          overdue() ? exitingReason(m.stream) : `the spill could not be written or read; ${m.stream} bytes were forwarded but not recorded`,
        );
    },
    mark: (m) => {
      marks[m.stream] = m.fields;
    },
    skip: (m) => framers[m.stream].skip(m.bytes, m.lastByte),
    lost: (m) => lose(m.stream, m.t, m.bytes, `the observer fell behind; ${m.stream} bytes were forwarded but not recorded`),
    end: (m) => {
      writeGap(m.stream);
      const last = framers[m.stream].end();
      if (last) lines(m.stream, [last], m.t);
      // From here on the server's requests have no one to answer them: the spy and `check` do not call them unanswered.
      if (m.stream === 'c2s') recorder.clientClosed(session, m.t);
    },
    event: (m) => {
      for (const stream of streams) writeGap(stream);
      recorder.event(session, m.kind, m.fields, m.t);
      // What was left pending is known at the exit: said after it, at its time, so time reads forward.
      if (m.kind === 'exit') recorder.endSession(session, m.t);
    },
  };

  return {
    handle: (message: StdioMessage, overdue: () => boolean, pressed: () => boolean) =>
      (handlers[message.type] as (m: StdioMessage, o: () => boolean, p: () => boolean) => void)(message, overdue, pressed),
    recorded: () => recorded,
    /** The spy is exiting: the bytes of a chunk are counted as not recorded instead of observed. */
    drop(message: StdioMessage): boolean {
      if (message.type !== 'chunk' && message.type !== 'skip' && message.type !== 'spilled') return false;
      const bytes = message.type === 'chunk' ? message.data.byteLength : message.type === 'spilled' ? message.spilled.length : message.bytes;
      lose(message.stream, Date.now(), bytes, exitingReason(message.stream));
      return true;
    },
    dropped() {
      for (const stream of streams) writeGap(stream);
    },
    end: () => {
      for (const stream of streams) writeGap(stream);
      recorder.endSession(session);
    },
  };
}
