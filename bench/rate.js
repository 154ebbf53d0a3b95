#!/usr/bin/env node
// Finds the highest offered rate at which the spy's record stays complete: every frame recorded,
// no gap. For each workload it first offers requests as fast as they go; if the record is not
// complete then, it offers a rate doubling from a start until the record falls short, then bisects.
//   npm run bench:rate [-- --seconds 2] [--transports stdio,http] [--steps 3]
// Workloads: MCP-sized frames (300 B requests, 2 KiB answers) and 1 MiB frames both ways.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runBenchmark, stop, stopAll } from './bench-processes.js';
import { loadNow, machineLine, MiB } from './figures.js';
import { httpTrial, startHttpServer, stdioTrial } from './rate-trials.js';

const workloads = [
  { transport: 'stdio', title: 'stdio, 300 B requests, 2 KiB answers', requestBytes: 300, responseBytes: 2048, start: 4000, fullCount: 60_000 },
  { transport: 'stdio', title: 'stdio, 1 MiB requests, 1 MiB answers', requestBytes: MiB, responseBytes: MiB, start: 16, fullCount: 200 },
  { transport: 'http', title: 'HTTP, 16 clients, 300 B requests, 2 KiB JSON answers', requestBytes: 300, responseBytes: 2048, start: 250 },
  { transport: 'http', title: 'HTTP, 16 clients, 1 MiB requests, 1 MiB JSON answers', requestBytes: MiB, responseBytes: MiB, start: 16 },
];

function options() {
  const { values } = parseArgs({
    options: { seconds: { type: 'string', default: '2' }, transports: { type: 'string', default: 'stdio,http' }, steps: { type: 'string', default: '3' } },
  });
  const seconds = Number(values.seconds);
  const steps = Number(values.steps);
  const transports = values.transports.split(',');
  if (!(seconds > 0) || !Number.isInteger(steps) || steps < 0) throw new Error('--seconds takes a positive number, --steps a whole number');
  const unknown = transports.find((name) => name !== 'stdio' && name !== 'http');
  if (unknown !== undefined) throw new Error(`unknown transport ${unknown}; the transports are stdio, http`);
  return { seconds, steps, transports };
}

const complete = (trial) => trial.record.gaps === 0 && trial.record.frames === trial.framesSent;
const perSecond = (workload, rate) => `${rate.toFixed(0).padStart(6)}/s (${((rate * workload.requestBytes) / MiB).toFixed(1).padStart(6)} MiB/s each way)`;

/** Runs trials from fastest down: full speed, then doubling, then bisecting between the last complete and the first short. */
async function search(_workload, { steps }, runTrial) {
  const lines = [];
  const attempt = async (rate) => {
    const trial = await runTrial(rate);
    trial.achieved = trial.calls / trial.seconds;
    trial.complete = complete(trial);
    const offered = rate === Infinity ? '  full speed' : perSecond(workload, rate);
    const { frames, gaps, lost } = trial.record;
    lines.push(
      `  offered ${offered.padEnd(36)} achieved ${perSecond(workload, trial.achieved)}  recorded ${frames}/${trial.framesSent} frames, ${gaps} gap(s)${lost ? `, ${(lost / MiB).toFixed(1)} MiB lost` : ''}  ${trial.complete ? 'complete' : 'SHORT'}`,
    );
    return trial;
  };
  const full = await attempt(Infinity);
  if (full.complete) return [...lines, `  highest complete: full speed, ${perSecond(workload, full.achieved).trim()}`];
  let good;
  let badRate = full.achieved;
  for (let rate = workload.start; rate < full.achieved; rate *= 2) {
    if ((await attempt(rate)).complete) good = rate;
    else {
      badRate = rate;
      break;
    }
  }
  if (good === undefined) return [...lines, `  highest complete: below ${perSecond(workload, workload.start).trim()} (short even there)`];
  for (let step = 0; step < steps && badRate / good > 1.1; step++) {
    const rate = Math.round((good + badRate) / 2);
    if ((await attempt(rate)).complete) good = rate;
    else badRate = rate;
  }
  return [...lines, `  highest complete: ${perSecond(workload, good).trim()} offered (short at ${perSecond(workload, badRate).trim()})`];
}

async function main() {
  const settings = options();
  const loadAtStart = loadNow();
  const dir = mkdtempSync(join(tmpdir(), 'mcp-spy-bench-'));
  const out = [];
  try {
    for (const workload of workloads.filter((w) => settings.transports.includes(w.transport))) {
      out.push('', workload.title);
      if (workload.transport === 'stdio') {
        const trial = (rate) =>
          stdioTrial(workload, { rate, dir, count: rate === Infinity ? workload.fullCount : Math.max(1, Math.round(rate * settings.seconds)) });
        out.push(...(await search(workload, settings, trial)));
      } else {
        const server = await startHttpServer(workload);
        out.push(...(await search(workload, settings, (rate) => httpTrial(workload, { rate, seconds: settings.seconds, dir, server }))));
        await stop(server);
      }
    }
    console.log(
      [
        `rate benchmark: node ${process.version}, the spy recording (record and log), ${settings.seconds} s per trial`,
        machineLine([loadAtStart, loadNow()]),
        ...out,
      ].join('\n'),
    );
    console.log(
      '\ncomplete: every frame sent both ways is in the record and it holds no gap. Full speed: all requests pipelined (stdio), or 16 clients each calling as soon as its answer came (HTTP).',
    );
  } finally {
    stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

runBenchmark('bench/rate.js', main);
