#!/usr/bin/env node
// Benchmark of the stdio spy. In every repetition each workload runs through seven setups, in an
// order that rotates between repetitions: direct, a `tee` sandwich, a Node pass-through (the floor of
// any Node spy), mcp-spy recording (capturing when pressed for time, the default), mcp-spy recording
// with every frame analysed (--capture never, the spy before its capture tier), mcp-spy recording with
// --lossless, and mcp-spy writing nothing. The server parses no JSON.
//   npm run bench:stdio     (BENCH_REPS=5 by default; BENCH_QUICK=1 for a short run;
//                            BENCH_ONLY=mcp,large for some workloads: mcp, small, large, huge, rtt,
//                            and the floods that last, run only when named: mcp-long, large-long;
//                            BENCH_FLOORS=1 adds the floors of a Node recorder, bench/node-recorders.js)
// Prints one table per workload on stdout and nothing else; it asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { oneAtATime, pipelined, startSetup } from './stdio-drive.js';
import { watchProcesses } from './proc-stats.js';
import { countRecord } from './record-count.js';
import { renderReport } from './stdio-report.js';
import { stdioSetups } from './stdio-setups.js';

const quick = process.env.BENCH_QUICK === '1';
const reps = Number(process.env.BENCH_REPS ?? (quick ? 2 : 5));
const scale = quick ? 0.1 : 1;
const n = (count) => Math.max(1, Math.round(count * scale));
const MiB = 1024 * 1024;

const allWorkloads = [
  { name: 'mcp', kind: 'throughput', requestBytes: 300, responseBytes: 2048, window: 64, count: n(120_000) },
  { name: 'small', kind: 'throughput', requestBytes: 100, responseBytes: 100, count: n(600_000) },
  { name: 'large', kind: 'throughput', requestBytes: MiB, responseBytes: MiB, count: n(240) },
  // Lines far past the parse limit (16 MiB): forwarded whole, recorded in part; what they cost in memory.
  { name: 'huge', kind: 'throughput', requestBytes: 64 * MiB, responseBytes: 64 * MiB, count: n(4) },
  { name: 'rtt', kind: 'latency', requestBytes: 300, responseBytes: 2048, count: n(4000) },
  // Floods that last (seconds, not one): only when named in BENCH_ONLY. Over them the observer ends
  // behind, where the short ones above are recorded whole.
  { name: 'mcp-long', kind: 'throughput', requestBytes: 300, responseBytes: 2048, window: 64, count: n(720_000), named: true },
  { name: 'large-long', kind: 'throughput', requestBytes: MiB, responseBytes: MiB, count: n(1200), named: true },
];
const only = process.env.BENCH_ONLY?.split(',');
const workloads = only ? allWorkloads.filter((w) => only.includes(w.name)) : allWorkloads.filter((w) => !w.named);
if (workloads.length === 0) {
  console.error(`bench/stdio.js: BENCH_ONLY names none of ${allWorkloads.map((w) => w.name).join(', ')}`);
  process.exit(1);
}
for (const w of workloads) {
  const size = (b) => (b >= MiB ? `${b / MiB} MiB` : b >= 1024 ? `${b / 1024} KiB` : `${b} B`);
  w.title =
    w.kind === 'latency'
      ? `round trip, one ${size(w.requestBytes)} request at a time (${size(w.responseBytes)} answers), ${w.count} per run`
      : `${w.count} x ${size(w.requestBytes)} requests, ${size(w.responseBytes)} answers, ${w.window ? `${w.window} in flight` : 'all pipelined'}`;
}

/** One run of a workload through a setup: its timing, the spy's CPU and peak RSS, and its record. */
async function runOnce(setup, workload, dir) {
  const running = startSetup(setup.command);
  await oneAtATime(running, { count: 1, requestBytes: workload.requestBytes }); // the server is up
  const watch = watchProcesses(setup.spyPids(running.child.pid));
  watch.baseline();
  const run = { exchanges: workload.count, framesSent: 2 * (workload.count + 1) };
  if (workload.kind === 'latency') run.times = await oneAtATime(running, workload);
  else run.seconds = await pipelined(running, workload);
  running.child.stdin.end();
  await running.exited;
  run.usage = watch.stop();
  if (setup.record) run.record = await countRecord(setup.record);
  for (const file of ['in.log', 'out.log', 'wire.jsonl', 'wire.log']) rmSync(join(dir, file), { force: true });
  return run;
}

const loadAtStart = loadavg()[0];
const dir = mkdtempSync(join(tmpdir(), 'mcp-spy-bench-'));
try {
  const results = new Map(workloads.map((w) => [w.name, new Map()]));
  for (let rep = 0; rep < reps; rep++) {
    for (const workload of workloads) {
      const setups = stdioSetups(dir, workload.responseBytes, { floors: process.env.BENCH_FLOORS === '1' });
      const order = setups.map((_, i) => setups[(i + rep) % setups.length]);
      const bySetup = results.get(workload.name);
      for (const setup of setups) if (!bySetup.has(setup.name)) bySetup.set(setup.name, []);
      for (const setup of order) bySetup.get(setup.name)[rep] = await runOnce(setup, workload, dir);
    }
  }
  console.log(renderReport(workloads, results, reps, [loadAtStart, loadavg()[0]]));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
