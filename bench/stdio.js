#!/usr/bin/env node
// Benchmark of the stdio spy against a plain pipe and a `tee` sandwich, measured in one run.
//   npm run bench:stdio            (BENCH_QUICK=1 for a short run)
// Prints round-trip latency (p50/p99) for 100-byte frames, pipelined throughput for 100-byte and
// 1 MiB frames, and mcp-spy's peak RSS while 500 MiB pass through and while one 64 MiB frame passes.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'mcp-spy.js');
const echo = join(root, 'fixtures', 'servers', 'echo-server.js');
const quick = process.env.BENCH_QUICK === '1';
const only = process.env.BENCH_ONLY; // 'speed' or 'rss' to run one half
const node = process.execPath;

/** The three ways of running the echo server: the command line a client would start. */
function setups(dir) {
  return {
    direct: [node, echo],
    tee: ['sh', '-c', `tee ${join(dir, 'in.log')} | ${node} ${echo} | tee ${join(dir, 'out.log')}`],
    'mcp-spy': [node, bin, '-q', '--record', join(dir, 'wire.jsonl'), '--log', join(dir, 'wire.log'), '--', node, echo],
  };
}

function start(command) {
  const child = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
  let buffered = Buffer.alloc(0);
  let onLine = () => {};
  child.stdout.on('data', (chunk) => {
    buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
    let newline = buffered.indexOf(10);
    while (newline !== -1) {
      onLine(newline);
      buffered = buffered.subarray(newline + 1);
      newline = buffered.indexOf(10);
    }
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return { child, setOnLine: (fn) => (onLine = fn), exited };
}

function frameOf(id, size) {
  const head = `{"jsonrpc":"2.0","id":${id},"method":"bench/echo","params":{"d":"`;
  const tail = '"}}\n';
  return head + 'x'.repeat(Math.max(0, size - head.length - tail.length)) + tail;
}

async function latency(command, count) {
  const { child, setOnLine, exited } = start(command);
  const times = [];
  let sentAt = 0;
  let resolveOne;
  setOnLine(() => resolveOne());
  for (let id = 0; id < count; id++) {
    const answered = new Promise((resolve) => (resolveOne = resolve));
    sentAt = performance.now();
    child.stdin.write(frameOf(id, 100));
    await answered;
    if (id >= 50) times.push(performance.now() - sentAt);
  }
  child.stdin.end();
  await exited;
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { p50: at(0.5), p99: at(0.99) };
}

async function throughput(command, size, count) {
  const { child, setOnLine, exited } = start(command);
  let answered = 0;
  const done = new Promise((resolve) => setOnLine(() => ++answered === count && resolve()));
  const started = performance.now();
  for (let id = 0; id < count; id++) {
    if (!child.stdin.write(frameOf(id, size))) await new Promise((resolve) => child.stdin.once('drain', resolve));
  }
  await done;
  const seconds = (performance.now() - started) / 1000;
  child.stdin.end();
  await exited;
  return { mibPerSecond: (size * count) / seconds / 1024 / 1024, framesPerSecond: count / seconds };
}

/** Peak RSS of the spy (VmHWM) while `total` bytes in frames of `size` go through it and back. */
async function peakRss(dir, size, total) {
  const command = [node, bin, '-q', '--record', join(dir, 'rss.jsonl'), '--log', join(dir, 'rss.log'), '--', 'cat'];
  const { child, setOnLine, exited } = start(command);
  const count = Math.ceil(total / size);
  let answered = 0;
  let peak = 0;
  const poll = setInterval(() => {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (match) peak = Math.max(peak, Number(match[1]) * 1024);
    } catch {}
  }, 20);
  const done = new Promise((resolve) => setOnLine(() => ++answered === count && resolve()));
  const frame = frameOf(0, size);
  const started = performance.now();
  for (let id = 0; id < count; id++) {
    if (!child.stdin.write(frame)) await new Promise((resolve) => child.stdin.once('drain', resolve));
  }
  await done;
  const seconds = (performance.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 100));
  child.stdin.end();
  await exited;
  clearInterval(poll);
  let gaps = 0;
  let frames = 0;
  for (const line of readFileSync(join(dir, 'rss.jsonl'), 'utf8').split('\n')) {
    if (line.includes('"kind":"gap"')) gaps++;
    else if (line.includes('"dir":"')) frames++;
  }
  rmSync(join(dir, 'rss.jsonl'), { force: true });
  rmSync(join(dir, 'rss.log'), { force: true });
  return { peakMiB: peak / 1024 / 1024, mibPerSecond: (size * count) / seconds / 1024 / 1024, gaps, frames, sent: count };
}

const fmt = (n, digits = 1) => n.toFixed(digits).padStart(9);
const dir = mkdtempSync(join(tmpdir(), 'mcp-spy-bench-'));
try {
  const commands = setups(dir);
  const rounds = quick ? 300 : 3000;
  const small = quick ? 20_000 : 200_000;
  const large = quick ? 20 : 200;
  const results = {};
  for (const [name, command] of only === 'rss' ? [] : Object.entries(commands)) {
    results[name] = {
      latency: await latency(command, rounds),
      small: await throughput(command, 100, small),
      large: await throughput(command, 1024 * 1024, large),
    };
  }
  if (only !== 'rss') report(results, rounds, small, large);
  if (only !== 'speed') await memory(dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

function report(results, rounds, small, large) {
  console.log(`stdio benchmark (node ${process.version}; ${rounds} round trips, ${small} x 100 B, ${large} x 1 MiB pipelined)\n`);
  console.log('setup        rtt p50 ms  rtt p99 ms   100B MiB/s  100B frames/s   1MiB MiB/s');
  for (const [name, r] of Object.entries(results)) {
    console.log(`${name.padEnd(10)} ${fmt(r.latency.p50, 3)}   ${fmt(r.latency.p99, 3)}    ${fmt(r.small.mibPerSecond)}    ${fmt(r.small.framesPerSecond, 0)}    ${fmt(r.large.mibPerSecond)}`);
  }
  const spy = results['mcp-spy'];
  const tee = results.tee;
  const direct = results.direct;
  console.log('\nratios (mcp-spy against tee; against direct in brackets):');
  console.log(`  added latency p50: ${fmt((spy.latency.p50 - direct.latency.p50) / (tee.latency.p50 - direct.latency.p50), 2)}x the tee sandwich's added latency`);
  console.log(`  latency p50:       ${fmt(spy.latency.p50 / tee.latency.p50, 2)}x  [${(spy.latency.p50 / direct.latency.p50).toFixed(2)}x]`);
  console.log(`  latency p99:       ${fmt(spy.latency.p99 / tee.latency.p99, 2)}x  [${(spy.latency.p99 / direct.latency.p99).toFixed(2)}x]`);
  console.log(`  throughput 100 B:  ${fmt(spy.small.mibPerSecond / tee.small.mibPerSecond, 2)}x  [${(spy.small.mibPerSecond / direct.small.mibPerSecond).toFixed(2)}x]`);
  console.log(`  throughput 1 MiB:  ${fmt(spy.large.mibPerSecond / tee.large.mibPerSecond, 2)}x  [${(spy.large.mibPerSecond / direct.large.mibPerSecond).toFixed(2)}x]`);

}

async function memory(dir) {
  const session = await peakRss(dir, 4096, (quick ? 50 : 500) * 1024 * 1024);
  const bigFrame = await peakRss(dir, 64 * 1024 * 1024, 64 * 1024 * 1024);
  console.log(`\nmcp-spy peak RSS (record and log on, server = cat):`);
  console.log(`  ${quick ? 50 : 500} MiB in 4 KiB frames each way: ${fmt(session.peakMiB)} MiB  (${session.mibPerSecond.toFixed(1)} MiB/s)`);
  console.log(`  one 64 MiB frame each way:       ${fmt(bigFrame.peakMiB)} MiB`);
  console.log(`  (the record of the ${quick ? 50 : 500} MiB session: ${session.gaps} gap event(s), ${session.frames} frames recorded of ${session.sent * 2} sent)`);
}
