import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import type { EventFields, FrameEntry } from '../../record/schema.js';
import { isObserved } from '../../sinks/open-sinks.js';
import { roomForObserver } from '../address-space.js';
import { nowMs } from '../../wire/framing/now.js';
import { largeFrameBytes, openObserverChannel, type ChannelOptions, type FinishOutcome } from '../channel/open-channel.js';
import type { StdioMessage, StdioObserverConfig, StdioStream } from './stdio-messages.js';
import type { SpillPlace } from '../channel/spill.js';

/** The streams in the order the record's progress counts them (see `controlSlots`). */
const stdioStreams: readonly StdioStream[] = ['c2s', 's2c', 'stderr'];

/** The stdio spy's handle on the observer thread: every chunk, stream end and event of the session goes over through it. */
export interface StdioObserverHandle {
  /** Bytes handed over and not yet observed. */
  readonly behind: number;
  chunk(stream: StdioStream, chunk: Buffer): void;
  /** With --lossless, while the observer has no room for more of `stream`: reading it waits for this to resolve. */
  roomFor(stream: StdioStream): Promise<void> | undefined;
  end(stream: StdioStream): void;
  event<K extends 'spawn' | 'exit' | 'note' | 'fault' | 'intercept'>(kind: K, fields: EventFields<K>): void;
  /** Fields for the next frame of the stream: a fault rule hands each line over whole, so it is that line's. */
  markNext(stream: 'c2s' | 's2c', fields: Partial<FrameEntry>): void;
  finish(timeoutMs?: number): Promise<FinishOutcome>;
  /** A stop signal arrived while finishing: finish now, the gaps naming it. */
  hurry(signal?: NodeJS.Signals): void;
  /** How many messages have gone over so far; `shownThrough` resolves once the live view has shown them. */
  mark(): number;
  shownThrough(mark: number): Promise<void>;
}

/**
 * The server's stderr may use only part of the room: a chatty server must not push its frames out
 * of the record (nor, with --lossless, hold them up).
 */
const shareOf = (stream: StdioStream) => (stream === 'stderr' ? 0.5 : 1);

/** The most spilled bytes one message names: what the observer reads back at once, and its span's size. */
const spilledMessageBytes = 256 * 1024;

/** Nothing records, logs or shows: no thread, no copy; finishing has nothing to wait for. */
const idleStdioHandle: StdioObserverHandle = {
  behind: 0,
  chunk: () => {},
  roomFor: () => undefined,
  end: () => {},
  event: () => {},
  markNext: () => {},
  finish: () => Promise.resolve({ closed: true }),
  hurry: () => {},
  mark: () => 0,
  shownThrough: () => Promise.resolve(),
};

/** The stdio spy's side of the observer, or an idle one when nothing would come of observing. */
export function startStdioObserver(config: StdioObserverConfig, options: ChannelOptions): StdioObserverHandle {
  return isObserved(config) && roomForObserver(options.warn) ? openStdioObserver(config, options) : idleStdioHandle;
}

/**
 * Hands each chunk over to the observer thread, and never waits. When the observer is too far
 * behind, bytes are counted, not queued (with --lossless they go over all the same, and `roomFor`
 * tells the transport to stop reading); past the parse limit, only lengths go over.
 */
function openStdioObserver(config: StdioObserverConfig, options: ChannelOptions): StdioObserverHandle {
  // What is captured goes to the record alone: with one, bytes the observer has no room for are
  // spilled beside it (or in the temporary directory), not lost.
  const captures = config.recordPath !== undefined && (config.capture === 'pressed' || config.capture === 'always');
  const spillDirs = captures ? [dirname(config.recordPath!), tmpdir()] : undefined;
  const channel = openObserverChannel<StdioMessage>({ kind: 'stdio', ...config }, { ...options, streams: stdioStreams, spillDirs });
  const { push } = channel;
  const lost: Record<StdioStream, number> = { c2s: 0, s2c: 0, stderr: 0 };
  /** Length of the unfinished line of each stream, so bytes past the parse limit are not copied. */
  const lineLength: Record<StdioStream, number> = { c2s: 0, s2c: 0, stderr: 0 };
  /**
   * Adds the bytes at `place` to the batch's last message when it names the bytes of the same
   * direction just before them in the spill: a flood of small chunks makes one message a batch.
   */
  function extendSpilled(stream: 'c2s' | 's2c', place: SpillPlace): boolean {
    const last = channel.last();
    if (last?.type !== 'spilled' || last.stream !== stream || last.spilled.at + last.spilled.length !== place.at) return false;
    if (last.spilled.length + place.length > spilledMessageBytes) return false;
    last.spilled.length += place.length;
    last.spilled.upTo = place.upTo;
    return true;
  }

  return {
    /** Bytes handed over and not yet observed. */
    get behind() {
      return channel.behind;
    },
    chunk(stream: StdioStream, chunk: Buffer) {
      channel.count(stdioStreams.indexOf(stream), chunk.length);
      if (channel.failed) return;
      const first = chunk.indexOf(0x0a);
      const overLimit = lineLength[stream] >= config.maxFrame;
      if (overLimit) {
        // The rest of an oversized line: only its length matters to the record.
        const tail = first === -1 ? chunk.length : first;
        channel.forwarded(tail);
        if (tail > 0) push({ type: 'skip', stream, bytes: tail, lastByte: chunk[tail - 1]! });
        lineLength[stream] += tail;
        if (first === -1) return;
        chunk = chunk.subarray(first);
      }
      const last = chunk.lastIndexOf(0x0a);
      const unfinished = last === -1 ? 0 : chunk.length - last - 1;
      // A chunk of a line that has grown large (the one it ends or the one it starts) belongs to a large frame.
      const newline = overLimit ? 0 : first;
      const large = lineLength[stream] + (newline === -1 ? chunk.length : newline) >= largeFrameBytes || unfinished >= largeFrameBytes;
      lineLength[stream] = last === -1 ? lineLength[stream] + chunk.length : unfinished;
      const t = nowMs();
      const data = channel.copy(chunk, shareOf(stream), large);
      // No room: a direction's bytes go to the spill, to be captured (the server's stderr is not captured).
      const place = data === undefined && stream !== 'stderr' ? channel.spill(chunk) : undefined;
      if (data === undefined && place === undefined) {
        lost[stream] += chunk.length;
        return;
      }
      if (lost[stream] > 0) {
        push({ type: 'lost', stream, t, bytes: lost[stream] });
        lost[stream] = 0;
      }
      if (data !== undefined) push({ type: 'chunk', stream, t, data });
      else if (!extendSpilled(stream as 'c2s' | 's2c', place!)) push({ type: 'spilled', stream: stream as 'c2s' | 's2c', t, spilled: place! });
    },
    roomFor: (stream: StdioStream) => channel.roomFor(shareOf(stream)),
    end(stream: StdioStream) {
      const t = nowMs();
      if (lost[stream] > 0) push({ type: 'lost', stream, t, bytes: lost[stream] });
      lost[stream] = 0;
      push({ type: 'end', stream, t });
    },
    event<K extends 'spawn' | 'exit' | 'note' | 'fault' | 'intercept'>(kind: K, fields: EventFields<K>) {
      push({ type: 'event', kind, t: nowMs(), fields });
    },
    markNext(stream: 'c2s' | 's2c', fields: Partial<FrameEntry>) {
      if (!channel.failed) push({ type: 'mark', stream, fields });
    },
    finish: channel.finish,
    hurry: channel.hurry,
    mark: channel.mark,
    shownThrough: channel.shownThrough,
  };
}
