// Turns the runs of every repetition into the printed tables: medians, and same-repetition ratios
// (against the tee sandwich for speed, against the Node pass-through for CPU and added latency).
import { floorSetups } from './stdio-setups.js';
import { cell, cpuPerExchangeUs, machineLine, median, MiB, min, peakRssMiB, percentile, perRep, recorded } from './figures.js';

function throughputTable(workload, bySetup) {
  const tee = bySetup.get('tee');
  const pass = bySetup.get('node pass');
  const lines = ['setup         MiB/s med  exch/s med  vs tee min  vs tee med  CPU us/exch  vs pass  peak RSS MiB  recorded'];
  for (const [name, runs] of bySetup) {
    const mib = runs.map((run) => (run.exchanges * (workload.requestBytes + workload.responseBytes)) / run.seconds / MiB);
    const rate = runs.map((run) => run.exchanges / run.seconds);
    const vsTee = perRep(runs, tee, (run, base) => base.seconds / run.seconds);
    const cpu = runs.map(cpuPerExchangeUs);
    const vsPass = perRep(runs, pass, (run, base) => cpuPerExchangeUs(run) / cpuPerExchangeUs(base));
    lines.push(
      `${name.padEnd(12)} ${cell(median(mib), 1, 10)} ${cell(median(rate), 0, 11)} ${cell(min(vsTee), 2, 11)} ${cell(median(vsTee), 2, 11)} ${cell(median(cpu), 1, 12)} ${cell(median(vsPass), 2, 8)} ${cell(peakRssMiB(runs), 1, 13)}  ${recorded(runs)}`,
    );
  }
  return lines;
}

function latencyTable(bySetup) {
  const p50 = (run) => percentile(run.times, 0.5);
  const direct = bySetup.get('direct');
  const tee = bySetup.get('tee');
  const pass = bySetup.get('node pass');
  const added = (run, rep) => p50(run) - p50(direct[rep]);
  const lines = ['setup        p50 ms med  p99 ms med  added p50 ms  p50 vs tee min/med  added vs pass min/med  CPU us/rt  vs pass  peak RSS MiB  recorded'];
  for (const [name, runs] of bySetup) {
    const vsTee = perRep(runs, tee, (run, base) => p50(run) / p50(base));
    // A repetition where the pass-through added nothing measurable gives no ratio (it would explode).
    const addedVsPass = runs.map((run, rep) => (added(pass[rep], rep) > 0.002 ? added(run, rep) / added(pass[rep], rep) : NaN));
    const cpu = runs.map(cpuPerExchangeUs);
    const vsPass = perRep(runs, pass, (run, base) => cpuPerExchangeUs(run) / cpuPerExchangeUs(base));
    lines.push(
      `${name.padEnd(12)} ${cell(median(runs.map(p50)), 3, 10)} ${cell(median(runs.map((run) => percentile(run.times, 0.99))), 3, 11)} ${cell(median(runs.map(added)), 3, 13)} ${cell(min(vsTee), 2, 11)} /${cell(median(vsTee), 2, 5)}  ${cell(min(addedVsPass), 2, 14)} /${cell(median(addedVsPass), 2, 5)}  ${cell(median(cpu), 1, 9)} ${cell(median(vsPass), 2, 8)} ${cell(peakRssMiB(runs), 1, 13)}  ${recorded(runs)}`,
    );
  }
  return lines;
}

/**
 * The measures a recorder is held to, for the setups that record, over the throughput workloads:
 * the share of frames recorded, the speed against tee and the CPU against the Node pass-through
 * (medians of same-repetition ratios), and the peak RSS.
 */
function summaryTable(workloads, results) {
  const throughput = workloads.filter((workload) => workload.kind === 'throughput');
  if (throughput.length === 0) return [];
  const names = throughput.map((workload) => workload.name);
  const lines = [
    '',
    `summary (${names.join(' / ')})`,
    `setup         ${'recorded med'.padEnd(24)} ${'vs tee med'.padEnd(22)} ${'CPU vs pass med'.padEnd(22)} peak RSS MiB`,
  ];
  for (const setup of ['spy record', 'spy analyse', 'spy lossless', ...floorSetups]) {
    const runsOf = (workload) => results.get(workload.name).get(setup);
    if (throughput.some((workload) => !runsOf(workload))) continue;
    const per = (f) => throughput.map((workload) => f(runsOf(workload), results.get(workload.name))).join(' / ');
    const recordedShare = per((runs) => (runs[0].record ? `${(median(runs.map((run) => run.record.frames / run.framesSent)) * 100).toFixed(0)}%` : '-'));
    const vsTee = per((runs, bySetup) => median(perRep(runs, bySetup.get('tee'), (run, base) => base.seconds / run.seconds)).toFixed(2));
    const vsPass = per((runs, bySetup) =>
      median(perRep(runs, bySetup.get('node pass'), (run, base) => cpuPerExchangeUs(run) / cpuPerExchangeUs(base))).toFixed(1),
    );
    const rss = per((runs) => peakRssMiB(runs).toFixed(0));
    lines.push(`${setup.padEnd(13)} ${recordedShare.padEnd(24)} ${vsTee.padEnd(22)} ${vsPass.padEnd(22)} ${rss}`);
  }
  return lines;
}

/** The printed report: one table per workload. `results`: workload name -> setup name -> runs by repetition. */
export function renderReport(workloads, results, reps, loads) {
  const out = [`stdio benchmark: node ${process.version}, ${reps} repetitions; ratios are taken within a repetition, then min/median`];
  out.push(machineLine(loads));
  for (const workload of workloads) {
    out.push('', `${workload.title}`);
    const bySetup = results.get(workload.name);
    out.push(...(workload.kind === 'latency' ? latencyTable(bySetup) : throughputTable(workload, bySetup)));
  }
  out.push(...summaryTable(workloads, results));
  out.push('', 'vs tee: tee time / setup time for throughput (>1 is faster than tee); p50 ratio for latency (<1 is faster).');
  out.push('added: p50 round trip minus direct p50; vs pass: against the Node pass-through in the same repetition');
  out.push('(added vs pass leaves out repetitions where the pass-through added under 2 us).');
  out.push("CPU and peak RSS (VmHWM) are the spy's own (both tee processes for tee), read from /proc before it exits.");
  if (workloads.some((workload) => results.get(workload.name).has(floorSetups[0]))) {
    out.push('node raw / lines / spans: the floors of a Node recorder (bench/node-recorders.js), not recorders: chunks appended');
    out.push('as they came; a JSON Lines entry per line, spliced unchecked; whole lines of a chunk in one base64 entry.');
  }
  return out.join('\n');
}
