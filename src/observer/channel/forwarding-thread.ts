import { Worker } from 'node:worker_threads';
import { createGcPacer } from '../gc-pacer.js';
import { createLagMeter } from './lag.js';
import type { ThreadConfig } from '../thread-config.js';
import { controlSlots, type FinishMessage, type ObserverReply } from './messages.js';

export interface ChannelOptions {
  /** Bytes handed to the observer and not yet observed, beyond which new bytes go unrecorded. */
  maxBehind?: number;
  /** How long the oldest byte handed over may wait to be observed before new bytes go unrecorded. */
  maxLagMs?: number;
  /** Said once when the observer itself fails. */
  warn: (message: string) => void;
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
export const largeFrameBytes = 256 * 1024;
/** How long past its deadline the observer may take to close the files before it is stopped. */
const closeGraceMs = 1000;
/**
 * How long finishing waits for an observer thread that has not started yet (loading its modules on
 * a busy machine) before its time to finish starts: a short session's record is not lost to the
 * thread's start-up.
 */
const startupWaitMs = 5000;

/** How a finish ended: the observer closed the files, or it was stopped (the record may lack its end). */
export type FinishOutcome = { closed: true } | { closed: false; lastSeq: number };

/** The observer thread's entry: it runs the pipeline into the sinks. */
const threadEntry = new URL('../thread-entry.js', import.meta.url);

/**
 * The forwarding thread's side of the observer thread, for either spy: messages go over in one
 * batch every few ms, the bytes they carry copied once into blocks that the batch transfers; it never
 * waits. The observer acknowledges the bytes it has observed; while too many are unacknowledged,
 * `copy` refuses, and the caller counts what it could not hand over. `config` is the thread's start-up data.
 */
export function openObserverChannel<M>(config: ThreadConfig, options: ChannelOptions) {
  // Room for a frame at the parse limit in each direction at once (a server echoing a large
  // request), and then some.
  const maxBehind = options.maxBehind ?? 2 * config.maxFrame + 4 * 1024 * 1024;
  const paceGc = createGcPacer();
  const control = new BigInt64Array(new SharedArrayBuffer(16));
  const worker = new Worker(threadEntry, {
    workerData: { ...config, control: control.buffer },
    // Young objects die young here (a few per frame): a nursery of 16 MiB lets most die before a
    // collection (6 MiB spent a fifth more CPU on collecting) and keeps the RSS within ~30 MiB of it.
    resourceLimits: { maxYoungGenerationSizeMb: 16 },
  });
  const maxLagMs = options.maxLagMs ?? defaultMaxLagMs;
  const lag = createLagMeter();
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
  let onReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  let onHurried: () => void = () => {};
  const hurried = new Promise<void>((resolve) => (onHurried = resolve));

  worker.on('message', (reply: ObserverReply) => {
    if (reply.type === 'ready') onReady();
    else if (reply.type === 'ack') {
      running = true;
      behind -= reply.bytes;
      lag.acked(reply.bytes);
    } else {
      finished = true;
      onClosed();
    }
  });
  worker.on('error', (error) => {
    failed = true;
    options.warn(`the observer stopped (${error.message}); the traffic keeps flowing, unrecorded`);
    onClosed();
  });
  worker.on('exit', () => onClosed());

  /** Moves the observer's deadline to `atMs`, unless it already has an earlier one. */
  function deadline(atMs: number) {
    const current = Atomics.load(control, controlSlots.deadline);
    if (current === 0n || BigInt(atMs) < current) Atomics.store(control, controlSlots.deadline, BigInt(Math.floor(atMs)));
  }

  function send() {
    scheduled = false;
    block = undefined;
    if (batch.length === 0 || failed) return;
    worker.postMessage(batch, transfer);
    batch = [];
    transfer = [];
  }

  function push(message: M | FinishMessage) {
    batch.push(message);
    if (!scheduled) {
      scheduled = true;
      // A few ms of traffic per batch: each batch wakes the observer thread once.
      setTimeout(send, batchMs);
    }
  }

  return {
    push,
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
      const room = large ? maxBehind : Math.min(maxBehind, smallRoom);
      if (failed || behind + chunk.length > room * share) return undefined;
      const now = performance.now();
      // Not before the observer has said it runs: its thread starting up is not falling behind.
      if (running && behind > lagFloorBytes && lag.lagMs(now) > maxLagMs) return undefined;
      behind += chunk.length;
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
     * Lets the observer write out what it can within `timeoutMs` of its running (a thread still
     * starting gets up to `startupWaitMs` first): what it has not observed by then becomes a gap in
     * the record. Resolves once the files are closed, or, should the observer not answer even after
     * a grace period, once it has been stopped.
     */
    async finish(timeoutMs = 10_000): Promise<FinishOutcome> {
      // The time to finish starts once the thread runs (or could not start, or is hurried).
      const startup = setTimeout(onReady, startupWaitMs);
      await Promise.race([ready, closed, hurried]);
      clearTimeout(startup);
      deadline(Date.now() + timeoutMs);
      push({ type: 'finish' });
      send();
      const timer = setTimeout(onClosed, timeoutMs + closeGraceMs);
      await closed;
      clearTimeout(timer);
      const lastSeq = Number(Atomics.load(control, controlSlots.seq));
      await worker.terminate();
      return finished ? { closed: true } : { closed: false, lastSeq };
    },
    /** Finish now (a signal while finishing): what is not yet observed becomes a gap. */
    hurry() {
      deadline(Date.now());
      onHurried();
    },
  };
}

export type ObserverChannel<M> = ReturnType<typeof openObserverChannel<M>>;
