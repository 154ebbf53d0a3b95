#!/usr/bin/env node
// Floors for a recorder written in Node: the least a Node spy that records can cost, each way of
// recording done as cheaply as we know how, on the thread that forwards, with nothing else. None is a
// recorder anyone should use (no analysis, no second thread, no care for the traffic when the disk is
// slow); the benchmark runs them beside mcp-spy to tell what its targets can ask of any Node recorder.
//   node bench/node-recorders.js <raw|lines|spans> <record file> <command> [args...]
// raw:   every chunk, both ways, appended to the file as it came (a Node `tee`: not JSON Lines)
// lines: one JSON Lines entry per line, the line spliced in as `msg` behind a seq, a time and a
//        direction (valid only where every line is JSON, as the benchmark's are: it checks nothing)
// spans: one entry per chunk's whole lines, in base64, as the spy captures a span when pressed
// Writes are batched: whatever came while the last write was out goes in the next one (batched-append.js).
import { spawn } from 'node:child_process';
import { batchedAppend } from './batched-append.js';

const [how, recordPath, command, ...args] = process.argv.slice(2);
if (!['raw', 'lines', 'spans'].includes(how)) throw new Error('usage: node-recorders.js <raw|lines|spans> <record file> <command> [args...]');
const server = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
const append = batchedAppend(recordPath);

let seq = 0;
/** The start of each direction's unfinished line, in the chunks it came in. */
const rest = { c2s: [], s2c: [] };
const close = Buffer.from('}\n');

/** The whole lines of this chunk, with what was left of the last one before them. */
function wholeLines(dir, chunk) {
  const end = chunk.lastIndexOf(10) + 1;
  if (end === 0) {
    rest[dir].push(chunk);
    return undefined;
  }
  const whole = rest[dir].length > 0 ? Buffer.concat([...rest[dir], chunk.subarray(0, end)]) : chunk.subarray(0, end);
  rest[dir] = end < chunk.length ? [chunk.subarray(end)] : [];
  return whole;
}

function record(dir, chunk) {
  if (how === 'raw') {
    append(chunk);
    return;
  }
  const whole = wholeLines(dir, chunk);
  if (!whole) return;
  const t = new Date().toISOString();
  if (how === 'spans') {
    let frames = 0;
    for (let at = whole.indexOf(10); at !== -1; at = whole.indexOf(10, at + 1)) frames++;
    append(Buffer.from(`{"v":2,"seq":${seq + 1},"frames":${frames},"t":"${t}","dir":"${dir}","captured":"${whole.toString('base64')}"}\n`, 'latin1'));
    seq += frames;
    return;
  }
  // lines: the entries of a chunk built in one buffer (another when it is full), each line copied in once.
  const tail = `,"t":"${t}","dir":"${dir}","msg":`;
  let out = Buffer.allocUnsafeSlow(whole.length * 2 + 4096);
  let used = 0;
  for (let from = 0, at = whole.indexOf(10); at !== -1; from = at + 1, at = whole.indexOf(10, from)) {
    const need = at - from + tail.length + 40;
    if (used + need > out.length) {
      append(out.subarray(0, used));
      out = Buffer.allocUnsafeSlow(Math.max(need, whole.length * 2 + 4096));
      used = 0;
    }
    used += out.latin1Write(`{"v":2,"seq":${++seq}${tail}`, used);
    used += whole.copy(out, used, from, at);
    used += close.copy(out, used);
  }
  append(out.subarray(0, used));
}

// Forwarded as the pass-through forwards (pipe), recorded from the same chunks.
process.stdin.pipe(server.stdin);
server.stdout.pipe(process.stdout);
process.stdin.on('data', (chunk) => record('c2s', chunk));
server.stdout.on('data', (chunk) => record('s2c', chunk));
// The client may close first, or the server may; neither is an error here.
server.stdin.on('error', () => {});
process.stdout.on('error', () => {});
server.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exitCode = code ?? 0;
});
