// Figures over the repetitions of a benchmark, shared by its reports: medians and extremes, ratios
// taken within a repetition, table cells, the share of frames recorded, CPU per exchange and peak RSS.
import { cpus, loadavg } from 'node:os';

export const MiB = 1024 * 1024;
const sorted = (values) => values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
export const median = (values) => {
  const s = sorted(values);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
export const min = (values) => sorted(values)[0] ?? NaN;
export const max = (values) => sorted(values).at(-1) ?? NaN;
export const percentile = (values, p) => {
  const s = sorted(values);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))];
};
export const cell = (value, digits, width) => (Number.isFinite(value) ? value.toFixed(digits) : '-').padStart(width);
/** `f(run, base)` for each repetition, against the base setup's run of the same repetition. */
export const perRep = (runs, base, f) => runs.map((run, rep) => (base ? f(run, base[rep]) : NaN));

/** Share of the frames sent (both ways) that the record holds, over the repetitions; gaps and the bytes they lost, in all. */
export function recorded(runs) {
  if (runs[0].record === undefined) return '-';
  const shares = runs.map((run) => run.record.frames / run.framesSent);
  const gaps = runs.reduce((sum, run) => sum + run.record.gaps, 0);
  const lost = runs.reduce((sum, run) => sum + run.record.lost, 0);
  const share = (value) => `${(value * 100).toFixed(1)}%`;
  return `${share(min(shares))} min / ${share(median(shares))} med, ${gaps} gap(s)${lost ? ` (${(lost / MiB).toFixed(1)} MiB unrecorded)` : ''}`;
}

/** CPU (us) the measured processes used per exchange of a run. */
export const cpuPerExchangeUs = (run) => (run.usage ? (run.usage.cpuMs * 1000) / run.exchanges : NaN);
export const peakRssMiB = (runs) => max(runs.map((run) => (run.usage ? run.usage.peakRssBytes / MiB : NaN)));

/** The machine the figures come from: CPUs, and the 1-minute load average at the start and end. */
export const machineLine = (loads) => `${cpus().length} CPUs; load average ${loads.map((load) => load.toFixed(1)).join(' at the start, ')} at the end`;
export const loadNow = () => loadavg()[0];
