import { Worker } from 'node:worker_threads';
import { createGcPacer } from './gc-pacer.js';
import type { FinishMessage, ObserverReply, WorkerConfig } from './observer-protocol.js';

export interface ChannelOptions {
  /** Bytes handed to the observer and not yet observed, beyond which new bytes go unrecorded. */
  maxBehind?: number;
  /** Said once when the observer itself fails. */
  warn: (message: string) => void;
}

/** Bytes are copied into blocks of at least this size; each batch hands its blocks over whole. */
const blockSize = 16 * 1024;
const batchMs = 2;

/**
 * The forwarding thread's side of the observer thread, for either spy: messages go over in one
 * batch every few ms, the bytes they carry copied once into blocks that the batch transfers; it never
 * waits. The observer acknowledges the bytes it has observed; while too many are unacknowledged,
 * `copy` refuses, and the caller counts what it could not hand over.
 */
export function openObserverChannel<M>(config: WorkerConfig, options: ChannelOptions) {
  // Room for a frame at the parse limit in each direction at once (a server echoing a large
  // request), and then some.
  const maxBehind = options.maxBehind ?? 2 * config.maxFrame + 4 * 1024 * 1024;
  const paceGc = createGcPacer();
  const worker = new Worker(new URL('./observer-worker.js', import.meta.url), {
    workerData: config,
    // Young objects die young here (one per frame): a small nursery keeps the RSS flat.
    resourceLimits: { maxYoungGenerationSizeMb: 6 },
  });
  let batch: (M | FinishMessage)[] = [];
  let transfer: ArrayBuffer[] = [];
  let block: Buffer | undefined;
  let used = 0;
  let scheduled = false;
  let behind = 0;
  let failed = false;
  let onClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => (onClosed = resolve));

  worker.on('message', (reply: ObserverReply) => {
    if (reply.type === 'ack') behind -= reply.bytes;
    else onClosed();
  });
  worker.on('error', (error) => {
    failed = true;
    options.warn(`the observer stopped (${error.message}); the traffic keeps flowing, unrecorded`);
    onClosed();
  });
  worker.on('exit', () => onClosed());

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
    /** Bytes handed over and not yet observed. */
    get behind() {
      return behind;
    },
    /** The observer failed: nothing more is handed over. */
    get failed() {
      return failed;
    },
    /** A copy of the bytes to put in a message of this tick, or undefined when the observer is too far behind. */
    copy(chunk: Buffer): Uint8Array | undefined {
      paceGc(chunk.length);
      if (failed || behind + chunk.length > maxBehind) return undefined;
      behind += chunk.length;
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
    /** Lets the observer write out everything; resolves when it has (or has failed). */
    async finish(timeoutMs = 30_000): Promise<void> {
      push({ type: 'finish' });
      send();
      const timer = setTimeout(onClosed, timeoutMs);
      await closed;
      clearTimeout(timer);
      await worker.terminate();
    },
  };
}

export type ObserverChannel<M> = ReturnType<typeof openObserverChannel<M>>;
