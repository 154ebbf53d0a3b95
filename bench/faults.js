#!/usr/bin/env node
// What the fault machinery costs the stdio spy: the same workloads through the spy with no fault
// option, with a rule that never matches (every line is then read whole and matched) and with
// `delay 0ms` on every tools/call (each request held for a timer's turn). The setups alternate within
// each repetition, in an order that rotates; ratios are taken against "no fault" in the same
// repetition, then their median. The server parses no JSON; every request is a tools/call.
//   npm run bench:faults    (BENCH_REPS=5 by default, at least 5; BENCH_QUICK=1 for small sizes;
//                            BENCH_NO_RECORD=1 to run the spies without a record or log)
// Prints one table per workload on stdout and nothing else; it asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cell, cpuPerExchangeUs, machineLine, median, MiB, min, max, peakRssMiB, perRep } from './figures.js';
import { watchProcesses } from './proc-stats.js';
import { oneAtATime, pipelined, startSetup } from './stdio-drive.js';

const quick = process.env.BENCH_QUICK === '1';
const reps = Math.max(5, Number(process.env.BENCH_REPS ?? 5));
const scale = quick ? 0.05 : 1;
const n = (count) => Math.max(1, Math.round(count * scale));
const record = process.env.BENCH_NO_RECORD !== '1';

const workloads = [
  { name: 'mcp', requestBytes: 300, responseBytes: 2048, window: 64, count: n(120_000) },
  { name: 'small', requestBytes: 100, responseBytes: 100, count: n(400_000) },
];

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'mcp-spy.js');
const lineServer = join(root, 'bench', 'line-server.js');

/** The spy three ways; the fault rules are given a seed, so that nothing is drawn at random. */
function faultSetups(dir, responseBytes) {
  const output = record ? ['--record', join(dir, 'wire.jsonl'), '--log', join(dir, 'wire.log')] : ['--no-record', '--no-log'];
  const spy = (faults) => [process.execPath, bin, '-q', ...output, ...faults, '--', process.execPath, lineServer, String(responseBytes)];
  return [
    { name: 'no fault', command: spy([]) },
    { name: 'never matches', command: spy(['--seed', '1', '--fault', 'resources/read uri=nothing://here: drop']) },
    { name: 'delay 0ms', command: spy(['--seed', '1', '--fault', 'tools/call: delay 0ms']) },
  ];
}

async function runOnce(setup, workload, dir) {
  const running = startSetup(setup.command);
  await oneAtATime(running, { count: 1, requestBytes: workload.requestBytes }); // the server is up
  const watch = watchProcesses([running.child.pid]);
  watch.baseline();
  const seconds = await pipelined(running, workload);
  running.child.stdin.end();
  await running.exited;
  const usage = watch.stop();
  for (const file of ['wire.jsonl', 'wire.log']) rmSync(join(dir, file), { force: true });
  return { seconds, exchanges: workload.count, usage };
}

function table(workload, bySetup) {
  const base = bySetup.get('no fault');
  const lines = ['setup           MiB/s med  exch/s med  vs none min  vs none med  vs none max  CPU us/exch  CPU vs none  peak RSS MiB'];
  for (const [name, runs] of bySetup) {
    const mib = runs.map((run) => (run.exchanges * (workload.requestBytes + workload.responseBytes)) / run.seconds / MiB);
    const rate = runs.map((run) => run.exchanges / run.seconds);
    const speed = perRep(runs, base, (run, none) => none.seconds / run.seconds);
    const cpu = perRep(runs, base, (run, none) => cpuPerExchangeUs(run) / cpuPerExchangeUs(none));
    lines.push(
      `${name.padEnd(14)} ${cell(median(mib), 1, 10)} ${cell(median(rate), 0, 11)} ${cell(min(speed), 2, 12)} ${cell(median(speed), 2, 12)} ${cell(max(speed), 2, 12)} ${cell(median(runs.map(cpuPerExchangeUs)), 1, 12)} ${cell(median(cpu), 2, 12)} ${cell(peakRssMiB(runs), 1, 13)}`,
    );
  }
  return lines;
}

const loadAtStart = loadavg()[0];
const dir = mkdtempSync(join(tmpdir(), 'mcp-spy-bench-faults-'));
try {
  const results = new Map(workloads.map((w) => [w.name, new Map()]));
  for (let rep = 0; rep < reps; rep++) {
    for (const workload of workloads) {
      const setups = faultSetups(dir, workload.responseBytes);
      const bySetup = results.get(workload.name);
      for (const setup of setups) if (!bySetup.has(setup.name)) bySetup.set(setup.name, []);
      for (let i = 0; i < setups.length; i++) {
        const setup = setups[(i + rep) % setups.length];
        bySetup.get(setup.name)[rep] = await runOnce(setup, workload, dir);
      }
    }
  }
  const out = [`fault machinery benchmark (stdio spy${record ? ', recording' : ', no record or log'}): node ${process.version}, ${reps} repetitions`];
  out.push(machineLine([loadAtStart, loadavg()[0]]));
  for (const workload of workloads) {
    const title = `${workload.count} x ${workload.requestBytes} B tools/call requests, ${workload.responseBytes} B answers, ${workload.window ? `${workload.window} in flight` : 'all pipelined'}`;
    out.push('', title, ...table(workload, results.get(workload.name)));
  }
  out.push('', 'vs none: "no fault" time / setup time in the same repetition (1.00: as fast; <1: slower), then min, median, max.');
  out.push('CPU vs none: the spy\'s CPU per exchange against "no fault" in the same repetition, median.');
  console.log(out.join('\n'));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
