import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { renderLine } from '../render/render-line.js';
import { observeHttp } from './http-observe.js';
import { controlSlots, type FinishMessage, type HttpMessage, type ObserverMessage, type ObserverReply, type WorkerConfig } from './observer-protocol.js';
import { createGcPacer } from './gc-pacer.js';
import { createRecorder } from './recorder.js';
import { createStderrOut, warnOnce } from './stderr-out.js';
import { observeStdio } from './stdio-observe.js';

// The observing side of a spy, on a thread of its own: framing, parsing, correlating and writing
// never take time from the thread that forwards the bytes.
const config = workerData as WorkerConfig;
// On Linux the nice value belongs to the thread: when the CPU is short, the bytes of the session
// (the forwarding thread, the client, the server) go first and the record waits or, at worst, gaps.
try {
  setPriority(10);
} catch {
  // Not permitted or not supported here: observe at normal priority.
}
const port = parentPort!;
const stderrOut = createStderrOut();
const warn = warnOnce(stderrOut);
// The exports are loaded only when asked for; messages wait in the port meanwhile.
const exportSink = config.export
  ? (await import('../export/export-sink.js')).createExportSink(config.export, { warn, note: (fields) => recorder.event(undefined, 'note', fields) })
  : undefined;
const recorder = createRecorder({
  recordPath: config.recordPath,
  logPath: config.logPath,
  recordNamed: config.recordNamed,
  logNamed: config.logNamed,
  live: config.live ? (entry, message) => stderrOut.line(renderLine(entry, { color: config.color, message, width: config.liveWidth })) : undefined,
  warn,
  transport: config.kind,
  redactPaths: config.redactPaths,
  pins: config.pins,
  sinks: exportSink ? [exportSink] : undefined,
});
type Message = ObserverMessage | HttpMessage;
const observer = (config.kind === 'stdio' ? observeStdio(config, recorder) : observeHttp(config, recorder)) as {
  handle(message: Message): void;
  /** Counts a message's bytes as not recorded; false when the message carries none (it is handled as usual). */
  drop(message: Message): boolean;
  /** Writes the gaps for what was dropped. */
  dropped(): void;
  end(): void;
};
const control = config.control ? new BigInt64Array(config.control) : undefined;

/** Past the deadline the forwarding side set (the spy is exiting): what is left is not observed. */
function overdue(): boolean {
  const deadline = control ? Atomics.load(control, controlSlots.deadline) : 0n;
  return deadline !== 0n && Date.now() >= Number(deadline);
}

async function finish() {
  clearInterval(deadlineWatch);
  observer.end();
  await exportSink?.close();
  // The files get what is queued, but not for ever: a reader that stopped reading a FIFO must
  // not keep the spy from exiting.
  await Promise.race([recorder.close(), new Promise((resolve) => setTimeout(resolve, 500).unref())]);
  recorder.closeNow();
  await stderrOut.flush();
  port.postMessage({ type: 'closed' } satisfies ObserverReply);
}

// The observer works through the batches in order, but stops while the files are far behind:
// small frames make several times their size in record and log lines, so the bytes waiting to be
// observed (which the forwarding side bounds) must not all be turned into lines at once.
// Bytes are acknowledged once observed; while too many are unacknowledged, the forwarding side
// stops handing over bytes and counts them as lost. Acknowledgements are gathered (a MiB, or
// 10 ms) so as not to wake the forwarding thread per batch.
const ackBytes = 1024 * 1024;
const maxBacklog = 4 * 1024 * 1024;
const waiting: (Message | FinishMessage)[][] = [];
let unacked = 0;
let ackTimer: NodeJS.Timeout | undefined;
let pacing = false;
const paceGc = createGcPacer();

function ack() {
  clearTimeout(ackTimer);
  ackTimer = undefined;
  if (unacked > 0) port.postMessage({ type: 'ack', bytes: unacked } satisfies ObserverReply);
  unacked = 0;
}

let abandoned = false;
let deadlineWatch: NodeJS.Timeout | undefined;

function handleOne(message: Message | FinishMessage) {
  if (message.type === 'finish') {
    ack();
    if (abandoned) observer.dropped();
    void finish();
    return;
  }
  // The gaps go before an event (the exit), so the record reads in order.
  if (abandoned && message.type === 'event') observer.dropped();
  if (!abandoned || !observer.drop(message)) observer.handle(message);
  if ('data' in message) {
    unacked += message.data.byteLength;
    if (!abandoned) paceGc(message.data.byteLength);
  }
}

/** Handles a batch from `from` on; returns where it stopped when the deadline passed, or -1. */
function handle(batch: (Message | FinishMessage)[], from = 0): number {
  for (let index = from; index < batch.length; index++) {
    // Checked every few messages: one message can hold thousands of small lines.
    if (!abandoned && (index & 15) === 0 && overdue()) return index;
    handleOne(batch[index]!);
  }
  if (control) Atomics.store(control, controlSlots.seq, BigInt(recorder.lastSeq()));
  if (unacked >= ackBytes) ack();
  else if (unacked > 0) ackTimer ??= setTimeout(ack, 10);
  return -1;
}

/** The deadline passed: what waits (from `from` of `batch` on) is counted, not observed; events (the exit) are still written. */
function abandon(batch: (Message | FinishMessage)[], from: number) {
  abandoned = true;
  pacing = false;
  handle(batch, from);
  while (waiting.length > 0) handle(waiting.shift()!);
}

function drain() {
  while (!pacing && waiting.length > 0) {
    const batch = waiting.shift()!;
    const stopped = handle(batch);
    if (stopped !== -1) return abandon(batch, stopped);
    if (!abandoned && recorder.backlog() > maxBacklog) {
      pacing = true;
      void recorder.caughtUp(maxBacklog / 4).then(() => {
        if (!pacing) return;
        pacing = false;
        drain();
      });
    }
  }
}

port.on('message', (batch: (Message | FinishMessage)[]) => {
  waiting.push(batch);
  // Once the spy has set a deadline, it is watched even while the observer waits for the files.
  if (!deadlineWatch && control && Atomics.load(control, controlSlots.deadline) !== 0n) {
    // The traffic is over: what is left to do is the record, and the client waits for it. Back
    // to normal priority where allowed (lowering a nice value takes a privilege).
    try {
      setPriority(0);
    } catch {
      // Finish at the lower priority.
    }
    deadlineWatch = setInterval(() => {
      if (!abandoned && overdue()) abandon([], 0);
    }, 20);
  }
  drain();
});
