import { STATUS_CODES } from 'node:http';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { sinksFor } from '../sinks/open-sinks.js';
import { createStderrOut, warnOnce } from '../sinks/stderr-out.js';
import { serveObserverChannel, type ObservingSide } from './channel/serve-channel.js';
import type { ChannelMessage } from './channel/channel-messages.js';
import { finishCause } from './channel/finish-cause.js';
import { readSpilled, type SpillPlace } from './channel/spill.js';
import { observeHttp } from './http/observe-http.js';
import { createRecorder } from './recorder.js';
import { observeStdio } from './stdio/observe-stdio.js';
import type { ThreadConfig } from './thread-config.js';

// The observing side of a spy, on a thread of its own: framing, parsing, correlating and writing
// never take time from the thread that forwards the bytes.
const { control, lossless, ...config } = workerData as ThreadConfig & { control?: SharedArrayBuffer; lossless?: boolean };
// On Linux the nice value belongs to the thread: when the CPU is short, the bytes of the traffic
// (the forwarding thread, the client, the server) go first and the record waits or, at worst, gaps.
// With --lossless the traffic waits for the record: a lower priority would only slow both.
try {
  if (!lossless) setPriority(10);
} catch {
  // Not permitted or not supported here: observe at normal priority.
}
const stderrOut = createStderrOut();
const warn = warnOnce(stderrOut);
// A sink may be loaded on use (the exports); messages wait in the port meanwhile.
const recorder = createRecorder({
  sinks: await sinksFor(config, stderrOut),
  warn,
  transport: config.kind,
  redactPaths: config.redactPaths,
  redactNames: config.redactNames,
  pins: config.pins,
  ...(config.kind === 'stdio' ? { session: config.session } : {}),
});
const shared = control ? new BigInt64Array(control) : undefined;
const cause = () => finishCause(shared);
const readSpill = (place: SpillPlace, overdue: () => boolean) => (shared ? readSpilled(shared, place, overdue) : undefined);
const observer = (
  config.kind === 'stdio' ? observeStdio(config, recorder, cause, readSpill) : observeHttp(config, recorder, STATUS_CODES, warn, cause)
) as ObservingSide<ChannelMessage>;
serveObserverChannel(parentPort!, control, observer, { ...recorder, flushStderr: () => stderrOut.flush() }, config.live);
