// Turns the runs of every repetition into the HTTP benchmark's tables: medians, and ratios to the
// minimal Node reverse proxy taken within each repetition, then their min and median.
import { cell, cpuPerExchangeUs, machineLine, median, min, peakRssMiB, percentile, perRep, recorded } from './figures.js';

const BASE = 'node proxy';
const FLOOR = 'node proxy rec';
const rate = (run) => run.exchanges / run.seconds;

function workloadTable(bySetup) {
  const base = bySetup.get(BASE);
  const lines = ['setup        calls/s med  vs proxy min  vs proxy med  p50 ms med  p99 ms med  CPU us/call  vs proxy  peak RSS MiB  recorded'];
  for (const [name, runs] of bySetup) {
    const vsProxy = perRep(runs, base, (run, other) => rate(run) / rate(other));
    const cpuVsProxy = perRep(runs, base, (run, other) => cpuPerExchangeUs(run) / cpuPerExchangeUs(other));
    const p50 = runs.map((run) => percentile(run.times, 0.5));
    const p99 = runs.map((run) => percentile(run.times, 0.99));
    lines.push(
      `${name.padEnd(12)} ${cell(median(runs.map(rate)), 0, 11)} ${cell(min(vsProxy), 2, 13)} ${cell(median(vsProxy), 2, 13)} ${cell(median(p50), 3, 11)} ${cell(median(p99), 3, 11)} ${cell(median(runs.map(cpuPerExchangeUs)), 1, 12)} ${cell(median(cpuVsProxy), 2, 9)} ${cell(peakRssMiB(runs), 1, 13)}  ${recorded(runs)}`,
    );
  }
  return lines;
}

/**
 * The spy's throughput at 16 clients against the Node proxy's (median of the same-repetition ratios),
 * for each server mode; and the floor of a Node recorder's, where the run had it.
 */
function targetLines(workloads, results) {
  return workloads
    .filter((w) => w.clients === 16)
    .map((w) => {
      const bySetup = results.get(w.name);
      const ratioOf = (name) => median(perRep(bySetup.get(name), bySetup.get(BASE), (run, other) => rate(run) / rate(other)));
      const ratio = ratioOf('spy record');
      const floor = bySetup.has(FLOOR) ? `; the floor of a Node recorder ${(100 * ratioOf(FLOOR)).toFixed(0)}%` : '';
      return `target (${w.mode}, 16 clients): spy recording at >= 90% of the Node proxy's calls/s; here ${(100 * ratio).toFixed(0)}% ${ratio >= 0.9 ? '(met)' : '(not met)'}${floor}`;
    });
}

/** The printed report: one table per workload. `results`: workload name -> setup name -> runs by repetition. */
export function renderReport(workloads, results, { reps, seconds, warm, loads }) {
  const out = [
    `HTTP benchmark: node ${process.version}, ${reps} repetition${reps > 1 ? 's' : ''} of ${seconds} s per setup after ${warm} s of warm-up; ratios are taken within a repetition, then min/median`,
  ];
  out.push(machineLine(loads));
  for (const workload of workloads) out.push('', workload.title, ...workloadTable(results.get(workload.name)));
  out.push('', ...targetLines(workloads, results));
  out.push('', 'vs proxy: against the minimal Node reverse proxy (bench/http-pass.js) in the same repetition.');
  out.push('CPU and peak RSS (VmHWM) are those of the proxy process (none for direct), read from /proc before it exits;');
  out.push("the spy's include writing out the rest of its record once stopped. recorded: frames in the record / frames sent.");
  if (workloads.some((workload) => results.get(workload.name).has(FLOOR))) {
    out.push(`${FLOOR}: the floor of a Node recorder, not a recorder: the same proxy appending each body, unchecked, as a JSON Lines entry.`);
  }
  return out.join('\n');
}
