import { Worker } from 'node:worker_threads';
import type { RecordEntry } from '../record/schema.js';
import type { ObserverConfig, ObserverMessage, ObserverReply, StdioStream } from './observer-protocol.js';
import { createGcPacer } from './gc-pacer.js';
import { nowMs } from './recorder.js';

export interface ObserverChannelOptions {
  /** Bytes handed to the observer and not yet observed, beyond which new bytes go unrecorded. */
  maxBehind?: number;
  /** Said once when the observer itself fails. */
  warn: (message: string) => void;
}

/**
 * The forwarding thread's side of the observer: copies each chunk once, hands chunks over in
 * batches, and never waits. When the observer is too far behind, bytes are counted, not queued.
 */
export function startObserver(config: ObserverConfig, options: ObserverChannelOptions) {
  // Room for a frame at the parse limit in each direction at once (a server echoing a large
  // request), and then some.
  const maxBehind = options.maxBehind ?? 2 * config.maxFrame + 4 * 1024 * 1024;
  const worker = new Worker(new URL('./observer-worker.js', import.meta.url), {
    workerData: config,
    // Young objects die young here (one per frame): a small nursery keeps the RSS flat.
    resourceLimits: { maxYoungGenerationSizeMb: 6 },
  });
  let batch: ObserverMessage[] = [];
  let transfer: ArrayBuffer[] = [];
  let scheduled = false;
  let behind = 0;
  let failed = false;
  const lost: Record<StdioStream, number> = { c2s: 0, s2c: 0, stderr: 0 };
  /** Length of the unfinished line of each stream, so bytes past the parse limit are not copied. */
  const lineLength: Record<StdioStream, number> = { c2s: 0, s2c: 0, stderr: 0 };
  const paceGc = createGcPacer();
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
    if (batch.length === 0 || failed) return;
    worker.postMessage(batch, transfer);
    batch = [];
    transfer = [];
  }

  function push(message: ObserverMessage) {
    batch.push(message);
    if (!scheduled) {
      scheduled = true;
      setImmediate(send);
    }
  }

  return {
    /** Bytes handed over and not yet observed. */
    get behind() {
      return behind;
    },
    chunk(stream: StdioStream, chunk: Buffer) {
      paceGc(chunk.length);
      if (failed) return;
      const first = chunk.indexOf(0x0a);
      const overLimit = lineLength[stream] >= config.maxFrame;
      if (overLimit) {
        // The rest of an oversized line: only its length matters to the record.
        const tail = first === -1 ? chunk.length : first;
        if (tail > 0) push({ type: 'skip', stream, bytes: tail, lastByte: chunk[tail - 1]! });
        lineLength[stream] += tail;
        if (first === -1) return;
        chunk = chunk.subarray(first);
      }
      const last = chunk.lastIndexOf(0x0a);
      lineLength[stream] = last === -1 ? lineLength[stream] + chunk.length : chunk.length - last - 1;
      const t = nowMs();
      if (behind + chunk.length > maxBehind) {
        lost[stream] += chunk.length;
        return;
      }
      if (lost[stream] > 0) {
        push({ type: 'lost', stream, t, bytes: lost[stream] });
        lost[stream] = 0;
      }
      const data = new Uint8Array(chunk);
      behind += data.byteLength;
      transfer.push(data.buffer as ArrayBuffer);
      push({ type: 'chunk', stream, t, data });
    },
    end(stream: StdioStream) {
      const t = nowMs();
      if (lost[stream] > 0) push({ type: 'lost', stream, t, bytes: lost[stream] });
      lost[stream] = 0;
      push({ type: 'end', stream, t });
    },
    event(kind: 'spawn' | 'exit', fields: Partial<RecordEntry>) {
      push({ type: 'event', kind, t: nowMs(), fields });
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

export type ObserverChannel = ReturnType<typeof startObserver>;
