import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { RecordEntry } from '../record/schema.js';
import { renderLine } from '../render/render-line.js';
import { createLineFramer, type LineFrame } from '../wire/line-framer.js';
import type { ObserverConfig, ObserverMessage, ObserverReply, StdioStream } from './observer-protocol.js';
import { createGcPacer } from './gc-pacer.js';
import { createRecorder } from './recorder.js';
import { createStderrOut } from './stderr-out.js';

// The observing side of the stdio spy, on a thread of its own: framing, parsing, correlating and
// writing never take time from the thread that forwards the bytes.
const config = workerData as ObserverConfig;
// On Linux the nice value belongs to the thread: when the CPU is short, the bytes of the session
// (the forwarding thread, the client, the server) go first and the record waits or, at worst, gaps.
try {
  setPriority(10);
} catch {
  // Not permitted or not supported here: observe at normal priority.
}
const port = parentPort!;
const stderrOut = createStderrOut();
const said = new Set<string>();
const recorder = createRecorder({
  recordPath: config.recordPath,
  logPath: config.logPath,
  live: config.live ? (entry, message) => stderrOut.line(renderLine(entry, { color: config.color, message })) : undefined,
  warn: (message) => {
    if (said.has(message)) return;
    said.add(message);
    stderrOut.line(`mcp-spy: ${message}`);
  },
  transport: 'stdio',
});
const { session } = config;
const framers = {
  c2s: createLineFramer(config.maxFrame),
  s2c: createLineFramer(config.maxFrame),
  stderr: createLineFramer(config.maxFrame),
};

function stderrEntry(line: LineFrame): Partial<RecordEntry> {
  const text = line.bytes.toString('utf8');
  const entry: Partial<RecordEntry> = { bytes: line.size };
  if (line.eol !== '\n') entry.eol = line.eol;
  if (line.truncated) entry.truncated = true;
  if (Buffer.byteLength(text) === line.bytes.length && !text.includes('\ufffd')) entry.raw = text;
  else entry.rawBase64 = line.bytes.toString('base64');
  return entry;
}

function lines(stream: StdioStream, found: LineFrame[], t: number) {
  for (const line of found) {
    if (stream === 'stderr') recorder.event(session, 'stderr', stderrEntry(line), t);
    else if (line.size > 0 || line.truncated) recorder.frame(session, stream, line, t);
  }
}

async function finish() {
  recorder.endSession(session);
  await recorder.close();
  await stderrOut.flush();
  port.postMessage({ type: 'closed' } satisfies ObserverReply);
}

const handlers: { [K in ObserverMessage['type']]: (message: Extract<ObserverMessage, { type: K }>) => void } = {
  chunk: (m) => lines(m.stream, framers[m.stream].push(Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength)), m.t),
  skip: (m) => framers[m.stream].skip(m.bytes, m.lastByte),
  lost: (m) => {
    framers[m.stream].resync();
    recorder.event(session, 'gap', { reason: `the observer fell behind; ${m.stream} bytes were forwarded but not recorded`, stream: m.stream, lost: m.bytes }, m.t);
  },
  end: (m) => {
    const last = framers[m.stream].end();
    if (last) lines(m.stream, [last], m.t);
  },
  event: (m) => {
    if (m.kind === 'exit') recorder.endSession(session);
    recorder.event(session, m.kind, m.fields, m.t);
  },
  finish: () => void finish(),
};

// Bytes are acknowledged once observed and once the files are not far behind. The forwarding side
// stops handing over bytes (and counts them as lost) while too many are unacknowledged, so the
// memory of the whole observing side stays bounded, and the file writes get their turn.
const maxBacklog = 4 * 1024 * 1024;
let unacknowledged = 0;
let pacing = false;

function acknowledge() {
  if (pacing || unacknowledged === 0) return;
  if (recorder.backlog() > maxBacklog) {
    pacing = true;
    void recorder.caughtUp(maxBacklog / 4).then(() => {
      pacing = false;
      acknowledge();
    });
    return;
  }
  port.postMessage({ type: 'ack', bytes: unacknowledged } satisfies ObserverReply);
  unacknowledged = 0;
}

const paceGc = createGcPacer();

port.on('message', (batch: ObserverMessage[]) => {
  for (const message of batch) {
    (handlers[message.type] as (m: ObserverMessage) => void)(message);
    if (message.type === 'chunk') {
      unacknowledged += message.data.byteLength;
      paceGc(message.data.byteLength);
    }
  }
  acknowledge();
});
