// Drives one setup: starts it, sends request frames, counts the answer lines (newlines only).
import { spawn } from 'node:child_process';

const paddings = new Map();
const REQUEST_TAIL = Buffer.from('"}}}\n');

/** A tools/call-like request line of `size` bytes (newline included). */
export function requestFrame(id, size) {
  const head = Buffer.from(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"bench","arguments":{"d":"`);
  if (!paddings.has(size)) paddings.set(size, Buffer.alloc(size, 'x'));
  const padding = paddings.get(size).subarray(0, Math.max(0, size - head.length - REQUEST_TAIL.length));
  return Buffer.concat([head, padding, REQUEST_TAIL]);
}

/** Starts a command; `onLines(n)` is told of every n answer lines that come. */
export function startSetup(command) {
  const child = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.on('error', () => {});
  const state = { child, nextId: 1, onLines: () => {} };
  child.stdout.on('data', (chunk) => {
    let lines = 0;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
    if (lines > 0) state.onLines(lines);
  });
  state.exited = new Promise((resolve) => child.on('close', resolve));
  return state;
}

/**
 * Sends `count` requests, at most `window` unanswered and, with `rate`, no more than `rate` a second
 * so far, batched into writes of ~64 KiB; resolves with seconds.
 */
export function pipelined(setup, { count, requestBytes, window = Infinity, rate = Infinity }) {
  const { child } = setup;
  let sent = 0;
  let answered = 0;
  let blocked = false;
  let timer;
  const started = performance.now();
  const due = () => (rate === Infinity ? count : Math.min(count, Math.floor(((performance.now() - started) * rate) / 1000) + 1));
  return new Promise((resolve) => {
    const pump = () => {
      const allowed = due();
      while (!blocked && sent < allowed && sent - answered < window) {
        const batch = [];
        let bytes = 0;
        while (sent < allowed && sent - answered < window && bytes < 65536) {
          const frame = requestFrame(setup.nextId++, requestBytes);
          batch.push(frame);
          bytes += frame.length;
          sent++;
        }
        if (!child.stdin.write(batch.length === 1 ? batch[0] : Buffer.concat(batch))) {
          blocked = true;
          child.stdin.once('drain', () => ((blocked = false), pump()));
        }
      }
      // Paced: come back when the next request is due.
      if (sent < count && sent >= allowed && timer === undefined) timer = setTimeout(() => ((timer = undefined), pump()), Math.max(1, 1000 / rate));
    };
    setup.onLines = (lines) => {
      answered += lines;
      if (answered >= count) resolve((performance.now() - started) / 1000);
      else pump();
    };
    pump();
  });
}

/** Sends `count` requests one at a time; resolves with the round-trip times (ms). */
export async function oneAtATime(setup, { count, requestBytes }) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const answered = new Promise((resolve) => (setup.onLines = resolve));
    const sentAt = performance.now();
    setup.child.stdin.write(requestFrame(setup.nextId++, requestBytes));
    await answered;
    times.push(performance.now() - sentAt);
  }
  return times;
}
