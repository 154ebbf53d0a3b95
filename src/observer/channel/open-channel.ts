import { Worker } from 'node:worker_threads';
import { createGcPacer } from '../gc-pacer.js';
import { createLagMeter } from './lag.js';
import { createRoomWaiters } from './room-waiters.js';
import type { ThreadConfig } from '../thread-config.js';
import { controlLength, controlSlots, recordedStreams, type FinishMessage, type ObserverReply } from './channel-messages.js';
import { finishCause, signalNumber } from './finish-cause.js';
import { readProgress, whileWritingOut } from './record-progress.js';
import type { TailEntry } from '../../sinks/last-words.js';
import { unrecordedTail, type HandedEvent } from './unrecorded-tail.js';
import { createSpill, type SpillPlace } from './spill.js';

export interface ChannelOptions {
  /** Bytes handed to the observer and not yet observed, beyond which new bytes go unrecorded. */
  maxBehind?: number;
  /** How long the oldest byte handed over may wait to be observed before new bytes go unrecorded. */
  maxLagMs?: number;
  /** Said once when the observer itself fails. */
  warn: (message: string) => void;
  /**
   * --lossless: bytes are always handed over, never counted as lost; when the observer is behind,
   * `roomFor` asks the caller to stop reading until it has caught up, and finishing waits for it.
   */
  lossless?: boolean;
  /**
   * Where bytes the observer has no room for go to be captured later, rather than be lost (see
   * `spill.ts`): directories to try, in order. Not with --lossless (nothing is refused then).
   */
  spillDirs?: readonly string[];
}

/** The streams whose bytes the record accounts for, by index (stdio: c2s, s2c, stderr; HTTP: one, unnamed). */
export interface ChannelStreams {
  streams: readonly (string | undefined)[];
}

/** Bytes are copied into blocks of at least this size; each batch hands its blocks over whole. */
const blockSize = 16 * 1024;
const batchMs = 2;
/**
 * The backlog is bounded in time as well as in bytes: a burst the observer cannot keep up with
 * becomes a gap at once, instead of keeping it busy for seconds after the traffic stopped. A small
 * backlog is never cut for its age: an observer starved of CPU for a while by a busy machine
 * still records a quiet session whole.
 */
const defaultMaxLagMs = 2000;
const lagFloorBytes = 1024 * 1024;
/** The room of the bytes of small frames (see `copy`), and from what size a frame counts as large. */
const smallRoom = 8 * 1024 * 1024;
/** The room in memory when a spill takes what does not fit: enough for the observer never to wait for it. */
const spillingRoom = 2 * 1024 * 1024;
export const largeFrameBytes = 256 * 1024;
/**
 * With --lossless, how far behind the observer may be before reading stops, whatever the frames'
 * size (nothing is cut, so a large frame needs no room of its own): enough for the observer never
 * to wait for the traffic (it acknowledges every MiB, and reading resumes at half the room), small
 * enough that a session of tiny frames neither waits long for its answers nor, at its end, for the
 * record (captured, 8 MiB of them takes the observer some tens of ms). With 2 MiB, 1 MiB frames
 * went at 112 a second each way, stalled between acknowledgements; with 8 at 155 (MCP frames +12 %,
 * 100-byte lines +4 %), for ~12 MiB more at the peak (4 MiB: 129 a second; 16: 144).
 */
const losslessRoom = 8 * 1024 * 1024;
/** How long past its deadline the observer may take to close the files before it is stopped. */
const closeGraceMs = 1000;
/**
 * How long finishing waits for an observer thread that has not started yet (loading its modules on
 * a busy machine) before its time to finish starts: a short session's record is not lost to the
 * thread's start-up.
 */
const startupWaitMs = 5000;

/**
 * How a finish ended: the observer closed the files, or it was stopped; then `tail` is what the
 * record lacks (the events it does not hold, gaps for the bytes it does not), to follow `lastSeq`.
 */
export type FinishOutcome = { closed: true } | { closed: false; lastSeq: number; tail: TailEntry[]; stopped?: string };

/** The observer thread's entry: it runs the pipeline into the sinks. */
const threadEntry = new URL('../thread-entry.js', import.meta.url);

/**
 * The forwarding thread's side of the observer thread, for either spy: messages go over in one
 * batch every few ms, the bytes they carry copied once into blocks that the batch transfers; it never
 * waits. The observer acknowledges the bytes it has observed; while too many are unacknowledged,
 * `copy` refuses, and the caller counts what it could not hand over. `config` is the thread's start-up data.
 */
export function openObserverChannel<M>(config: ThreadConfig, options: ChannelOptions & ChannelStreams) {
  // Room for a frame at the parse limit in each direction at once (a server echoing a large
  // request), and then some.
  const maxBehind = options.maxBehind ?? 2 * config.maxFrame + 4 * 1024 * 1024;
  const lossless = options.lossless === true;
  const paceGc = createGcPacer();
  const control = new BigInt64Array(new SharedArrayBuffer(8 * controlLength));
  const spill = options.spillDirs && !lossless ? createSpill(options.spillDirs, control) : undefined;
  const worker = new Worker(threadEntry, {
    workerData: { ...config, control: control.buffer, lossless },
    // A young generation of two 2 MiB semi-spaces. It was so all along: the bin set
    // --max-semi-space-size=2 at run time, which V8 applies to the heaps set up after it (this
    // thread's: it overrode the 16 MiB asked here) and not to the main thread's, set up before. With
    // 16 MiB the thread's young generation grows to it through a flood of large frames, and the
    // spy's peak RSS with it (1 MiB frames through cat: 185 -> 200 MiB), for no CPU time seen saved.
    // A code range of 16 MiB (the default reserves 128 MiB of address space up front): under an
    // address-space limit that reservation was what failed, aborting the whole process.
    resourceLimits: { maxYoungGenerationSizeMb: 6, codeRangeSizeMb: 16 },
  });
  const maxLagMs = options.maxLagMs ?? defaultMaxLagMs;
  const lag = createLagMeter();
  /** Bytes copied over so far, told the observer with each batch (see `controlSlots.handedOver`). */
  let handedOver = 0;
  let running = false;
  let batch: (M | FinishMessage)[] = [];
  let transfer: ArrayBuffer[] = [];
  let block: Buffer | undefined;
  let used = 0;
  let scheduled = false;
  let behind = 0;
  let failed = false;
  let finished = false;
  let onClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => (onClosed = resolve));
  /** The observer said it closed the files, or its thread ended (`closed` also resolves when it is given up on). */
  let onEnded: () => void = () => {};
  const ended = new Promise<void>((resolve) => (onEnded = resolve));
  let onReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  /** Finishing with no bound (--lossless): only a hurry gives up on the thread. */
  let unbounded = false;
  let hurryTimer: NodeJS.Timeout | undefined;
  let onHurried: () => void = () => {};
  const hurried = new Promise<void>((resolve) => (onHurried = resolve));
  /** Messages pushed (a finish aside), and how many of them the live view has written out. */
  let pushed = 0;
  let shown = 0;
  /** Bytes of each stream forwarded (handed over or not), and the events handed over: the record's end, should the observer not write it. */
  const forwarded: number[] = new Array<number>(recordedStreams).fill(0);
  const events: HandedEvent[] = [];
  const shownWaiters = new Map<number, (() => void)[]>();
  const wakeShown = (all: boolean) => {
    for (const [mark, waiters] of shownWaiters) {
      if (!all && mark > shown) continue;
      shownWaiters.delete(mark);
      for (const resolve of waiters) resolve();
    }
  };
  const roomWaiters = createRoomWaiters();

  worker.on('message', (reply: ObserverReply) => {
    if (reply.type === 'ready') onReady();
    else if (reply.type === 'ack') {
      running = true;
      behind -= reply.bytes;
      spill?.readBack(reply.spilled);
      lag.acked(reply.bytes);
      roomWaiters.wake(behind);
    } else if (reply.type === 'shown') {
      shown = reply.messages;
      wakeShown(false);
    } else {
      finished = true;
      onClosed();
      onEnded();
    }
  });
  void closed.then(() => {
    wakeShown(true);
    // An observer that failed or was given up on holds no reader back: the traffic goes on unrecorded.
    roomWaiters.wake(behind, true);
  });
  /** Why the thread ended before it was told to finish, if it did: its gaps say so, not that time ran out. */
  let stopped: string | undefined;
  /** The thread is being stopped by finishing itself: its end is no failure. */
  let stopping = false;
  /** The thread ended on its own, for `why`: said once. */
  const stoppedBy = (why: string) => {
    if (stopped !== undefined) return;
    stopped = why;
    options.warn(`the observer stopped (${why}); the traffic keeps flowing, unrecorded`);
  };
  worker.on('error', (error) => {
    failed = true;
    stoppedBy(error.message);
    onClosed();
  });
  let gone = false;
  worker.on('exit', (code) => {
    gone = true;
    if (!finished && !stopping) stoppedBy(`its thread exited with code ${code}`);
    onClosed();
    onEnded();
  });

  /**
   * Moves the observer's deadline to `atMs`, unless it already has an earlier one; says whether it
   * moved. Whole ms first: a time to finish reckoned from the server's exit has a fraction, and BigInt
   * refuses one (a stop signal that set the deadline before the finish did made the spy fail with an
   * internal error).
   */
  function deadline(atMs: number): boolean {
    const at = BigInt(Math.floor(atMs));
    const current = Atomics.load(control, controlSlots.deadline);
    if (current !== 0n && at >= current) return false;
    Atomics.store(control, controlSlots.deadline, at);
    return true;
  }

  function send() {
    scheduled = false;
    block = undefined;
    // The spilled bytes this batch names are on their way to the file before it goes.
    spill?.flush();
    if (batch.length === 0 || failed) return;
    Atomics.store(control, controlSlots.handedOver, BigInt(handedOver));
    worker.postMessage(batch, transfer);
    batch = [];
    transfer = [];
  }

  function push(message: M | FinishMessage) {
    if ((message as { type: string }).type !== 'finish') pushed++;
    const event = message as { type: string; kind?: HandedEvent['kind']; t?: number; fields?: HandedEvent['fields'] };
    if (event.type === 'event') events.push({ number: pushed, forwarded: [...forwarded], t: event.t!, kind: event.kind!, fields: event.fields! });
    batch.push(message);
    if (!scheduled) {
      scheduled = true;
      // A few ms of traffic per batch: each batch wakes the observer thread once.
      setTimeout(send, batchMs);
    }
  }

  return {
    push,
    /** `bytes` of stream `index` were forwarded: counted whether they are handed over or not. */
    count(index: number, bytes: number) {
      forwarded[index]! += bytes;
    },
    /** How many messages have been pushed so far: a mark to wait for with `shownThrough`. */
    mark: () => pushed,
    /** Resolves once the live view has written out the lines of the first `mark` messages (or the observer is gone). */
    shownThrough(mark: number): Promise<void> {
      if (shown >= mark || failed || finished) return Promise.resolve();
      return new Promise((resolve) => {
        const waiters = shownWaiters.get(mark);
        if (waiters) waiters.push(resolve);
        else shownWaiters.set(mark, [resolve]);
      });
    },
    /** Settles once the observer thread has loaded and opened what it needs, or failed to. */
    started: Promise.race([ready, closed]),
    /** The last message of the batch not yet sent: a mark that follows it may ride on it. */
    last(): M | FinishMessage | undefined {
      return batch.at(-1);
    },
    /** Bytes handed over and not yet observed. */
    get behind() {
      return behind;
    },
    /** The observer failed: nothing more is handed over. */
    get failed() {
      return failed;
    },
    /** Bytes forwarded without a copy (past the parse limit): spent chunks are collected at the same pace. */
    forwarded: (bytes: number) => paceGc(bytes),
    /**
     * A copy of the bytes to put in a message of this tick, or undefined when the observer is too far
     * behind (beyond `share` of the room). The bytes of small frames get `smallRoom` of it at most:
     * the whole room is there for the frames at the parse limit it is sized for, and filling it with
     * thousands of small ones would only cost memory (a burst of them gaps a little sooner instead).
     */
    copy(chunk: Buffer, share = 1, large = true): Uint8Array | undefined {
      paceGc(chunk.length);
      // With a spill, a large frame needs no room of its own: what does not fit waits there, whole.
      const room = (spill !== undefined ? spillingRoom : large ? maxBehind : Math.min(maxBehind, smallRoom)) * share;
      if (failed) return undefined;
      // With --lossless every byte goes over: the caller stops reading instead (see `roomFor`).
      if (!lossless && behind + chunk.length > room) return undefined;
      const now = performance.now();
      // Not before the observer has said it runs: its thread starting up is not falling behind.
      if (!lossless && running && behind > lagFloorBytes && lag.lagMs(now) > maxLagMs) return undefined;
      behind += chunk.length;
      handedOver += chunk.length;
      lag.sent(chunk.length, now);
      if (block === undefined || block.length - used < chunk.length) {
        block = Buffer.allocUnsafeSlow(Math.max(blockSize, chunk.length));
        used = 0;
        transfer.push(block.buffer as ArrayBuffer);
      }
      chunk.copy(block, used);
      const data = new Uint8Array(block.buffer, used, chunk.length);
      used += chunk.length;
      return data;
    },
    /**
     * Where `chunk`, which `copy` had no room for, is in the spill, or undefined when it cannot go
     * there either (no spill, or none with room): then it is lost, and counted.
     */
    spill(chunk: Buffer): SpillPlace | undefined {
      if (failed || spill === undefined) return undefined;
      const place = spill.put(chunk);
      if (place !== undefined) handedOver += chunk.length;
      return place;
    },
    /**
     * With --lossless, once the backlog is past `share` of `losslessRoom`: resolves when the
     * observer has worked it down to half that (or is gone), and the caller reads no more until
     * then. Undefined while there is room, and always without --lossless.
     */
    roomFor(share = 1): Promise<void> | undefined {
      const room = losslessRoom * share;
      if (!lossless || failed || finished || gone || behind <= room) return undefined;
      return roomWaiters.wait(room / 2);
    },
    /**
     * Lets the observer write out what it can within `timeoutMs` of its running (a thread still
     * starting gets up to `startupWaitMs` first): what it has not observed by then becomes a gap in
     * the record; `Infinity` (--lossless) waits until it has written everything, or is hurried.
     * Resolves once the files are closed, or, should the observer not answer even after a grace
     * period, once it has been stopped.
     */
    async finish(timeoutMs = 10_000): Promise<FinishOutcome> {
      // The time to finish starts once the thread runs (or could not start, or is hurried).
      const startup = setTimeout(onReady, startupWaitMs);
      await Promise.race([ready, closed, hurried]);
      clearTimeout(startup);
      // Without a bound (--lossless), a deadline that never comes still tells the thread the traffic is over.
      const bounded = Number.isFinite(timeoutMs);
      deadline(bounded ? Date.now() + timeoutMs : Number.MAX_SAFE_INTEGER);
      push({ type: 'finish' });
      send();
      unbounded = !bounded;
      const timer = bounded ? setTimeout(onClosed, timeoutMs + closeGraceMs) : undefined;
      await closed;
      clearTimeout(timer);
      clearTimeout(hurryTimer);
      if (!finished && !gone) await whileWritingOut(control, ended, closeGraceMs);
      stopping = true;
      await worker.terminate();
      spill?.close();
      if (finished) return { closed: true };
      const held = readProgress(control);
      const cause = stopped === undefined ? finishCause(control) : { stopped };
      const tail = unrecordedTail(events, forwarded, held, options.streams, Date.now(), cause);
      return { closed: false, lastSeq: held.lastSeq, tail, ...(stopped === undefined ? {} : { stopped }) };
    },
    /** Finish now (`signal` arrived while finishing): what is not yet observed becomes a gap, whose reason names it. */
    hurry(signal?: NodeJS.Signals) {
      // A signal after the drain timeout ran out cut nothing: the gaps keep naming the timeout.
      if (deadline(Date.now()) && signal) Atomics.store(control, controlSlots.cutBy, signalNumber(signal));
      onHurried();
      // A finish without a bound has no timer of its own: past the grace period the thread is stopped.
      if (unbounded) hurryTimer ??= setTimeout(onClosed, closeGraceMs);
    },
  };
}

export type ObserverChannel<M> = ReturnType<typeof openObserverChannel<M>>;
