import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { renderLine } from '../render/render-line.js';
import { observeHttp } from './http-observe.js';
import type { FinishMessage, HttpMessage, ObserverMessage, ObserverReply, WorkerConfig } from './observer-protocol.js';
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
const recorder = createRecorder({
  recordPath: config.recordPath,
  logPath: config.logPath,
  live: config.live ? (entry, message) => stderrOut.line(renderLine(entry, { color: config.color, message })) : undefined,
  warn: warnOnce(stderrOut),
  transport: config.kind,
});
type Message = ObserverMessage | HttpMessage;
const observer = (config.kind === 'stdio' ? observeStdio(config, recorder) : observeHttp(config, recorder)) as {
  handle(message: Message): void;
  end(): void;
};

async function finish() {
  observer.end();
  await recorder.close();
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

function handle(batch: (Message | FinishMessage)[]) {
  for (const message of batch) {
    if (message.type === 'finish') {
      ack();
      void finish();
      continue;
    }
    observer.handle(message);
    if ('data' in message) {
      unacked += message.data.byteLength;
      paceGc(message.data.byteLength);
    }
  }
  if (unacked >= ackBytes) ack();
  else if (unacked > 0) ackTimer ??= setTimeout(ack, 10);
}

function drain() {
  while (!pacing && waiting.length > 0) {
    handle(waiting.shift()!);
    if (recorder.backlog() > maxBacklog) {
      pacing = true;
      void recorder.caughtUp(maxBacklog / 4).then(() => {
        pacing = false;
        drain();
      });
    }
  }
}

port.on('message', (batch: (Message | FinishMessage)[]) => {
  waiting.push(batch);
  drain();
});
