#!/usr/bin/env node
// Benchmark of the HTTP spy. In every repetition each workload (a server mode, 1 or 16 clients on
// keep-alive connections, each calling as fast as its answers come) runs through four setups, in an
// order that rotates between repetitions: direct to the server, a minimal Node reverse proxy (the
// floor of any Node spy), mcp-spy recording, and mcp-spy writing nothing. The bench server parses
// no JSON; `--modes sdk` adds the SDK's Streamable HTTP server.
//   npm run bench:http [-- --seconds 1.5] [--warm 0.25] [--reps 5] [--modes json,sse] [--clients 1,16] [--floors]
// --warm: seconds of calls before the timed ones, in every run (each starts a new proxy). The spy's
// code takes seconds to settle in the JIT: with 8 s of warm-up it made ~30 % more calls a second
// than with 0.3 s (the proxy the same), so short runs show a new spy, long ones a settled one.
// --floors adds the floor of a Node HTTP recorder: the minimal proxy appending each body to a file.
// Prints one table per workload on stdout and nothing else; it asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runBenchmark, startListening, stop, stopAll } from './bench-processes.js';
import { closedLoop, initialize, openClient } from './http-drive.js';
import { httpSetups, listening, serverModes } from './http-setups.js';
import { loadNow } from './figures.js';
import { watchProcesses } from './proc-stats.js';
import { countRecord } from './record-count.js';
import { renderReport } from './http-report.js';

function options() {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '1.5' },
      warm: { type: 'string', default: '0.25' },
      reps: { type: 'string', default: '5' },
      modes: { type: 'string', default: 'json,sse' },
      clients: { type: 'string', default: '1,16' },
      floors: { type: 'boolean', default: false },
    },
  });
  const seconds = Number(values.seconds);
  const warm = Number(values.warm);
  const reps = Number(values.reps);
  const modes = values.modes.split(',');
  const clients = values.clients.split(',').map(Number);
  if (!(seconds > 0) || !Number.isInteger(reps) || reps < 1) throw new Error('--seconds takes a positive number, --reps a positive integer');
  if (!(warm >= 0)) throw new Error('--warm takes a number of seconds, 0 or more');
  const unknown = modes.find((mode) => !Object.hasOwn(serverModes, mode));
  if (unknown !== undefined) throw new Error(`unknown mode ${unknown}; the modes are ${Object.keys(serverModes).join(', ')}`);
  if (!clients.every((n) => Number.isInteger(n) && n > 0)) throw new Error('--clients takes positive integers, e.g. 1,16');
  return { seconds, warm, reps, modes, clients, floors: values.floors };
}

/** One run of a workload through a setup: calls made, their round trips, the proxy's CPU and peak RSS, its record. */
async function runOnce(setup, workload, server, seconds, warmSeconds) {
  const proxy = setup.command ? await startListening(setup.command, listening, { cwd: server.dir }) : undefined;
  const url = `http://127.0.0.1:${proxy ? proxy.found : server.port}/mcp`;
  const clients = Array.from({ length: workload.clients }, () => openClient(url));
  const mode = serverModes[workload.mode];
  if (mode.session) await Promise.all(clients.map(initialize));
  const ids = { next: 1 };
  // A moment to warm up, counted for the record but not timed.
  const warm = await closedLoop(clients, { seconds: warmSeconds, body: mode.body, ids });
  const watch = proxy ? watchProcesses([proxy.child.pid]) : undefined;
  watch?.baseline();
  const timed = await closedLoop(clients, { seconds, body: mode.body, ids });
  for (const client of clients) client.agent.destroy();
  if (proxy) await stop(proxy);
  const run = { exchanges: timed.calls, seconds: timed.seconds, times: timed.times, usage: watch?.stop() };
  run.framesSent = 2 * (warm.calls + timed.calls) + (mode.session ? 3 * workload.clients : 0);
  if (setup.record) run.record = await countRecord(setup.record);
  for (const file of ['wire.jsonl', 'wire.log', 'floor.jsonl']) rmSync(join(server.dir, file), { force: true });
  return run;
}

async function main() {
  const { seconds, warm, reps, modes, clients, floors } = options();
  const workloads = modes.flatMap((mode) =>
    clients.map((n) => ({ name: `${mode}-${n}`, mode, clients: n, title: `${serverModes[mode].title}, ${n} client${n > 1 ? 's' : ''}` })),
  );
  const loadAtStart = loadNow();
  const dir = mkdtempSync(join(tmpdir(), 'mcp-spy-bench-'));
  const servers = new Map();
  try {
    for (const mode of modes) servers.set(mode, { dir, port: (await startListening(serverModes[mode].command, /listening on (\d+)/)).found });
    const results = new Map(workloads.map((w) => [w.name, new Map()]));
    for (let rep = 0; rep < reps; rep++) {
      for (const workload of workloads) {
        const server = servers.get(workload.mode);
        const setups = httpSetups(dir, `http://127.0.0.1:${server.port}/mcp`, { floors });
        const bySetup = results.get(workload.name);
        for (const setup of setups) if (!bySetup.has(setup.name)) bySetup.set(setup.name, []);
        for (let i = 0; i < setups.length; i++) {
          const setup = setups[(i + rep) % setups.length];
          bySetup.get(setup.name)[rep] = await runOnce(setup, workload, server, seconds, warm);
        }
      }
    }
    console.log(renderReport(workloads, results, { reps, seconds, warm, loads: [loadAtStart, loadNow()] }));
  } finally {
    stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

runBenchmark('bench/http.js', main);
