// What a process has used so far, read from /proc (Linux; elsewhere every reading is undefined).
import { readFileSync } from 'node:fs';

const TICK_MS = 10; // clock ticks of 10 ms (USER_HZ = 100)

const read = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/** User + system CPU time (ms) of a process, its threads included. */
export function cpuMs(pid) {
  const stat = read(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** Peak resident set size (VmHWM, bytes) of a process. */
export function peakRssBytes(pid) {
  const match = /VmHWM:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`) ?? '');
  return match ? Number(match[1]) * 1024 : undefined;
}

/** The children of a process whose command name is `name`. */
export function childrenNamed(pid, name) {
  const children = (read(`/proc/${pid}/task/${pid}/children`) ?? '').trim().split(/\s+/).filter(Boolean);
  return children.map(Number).filter((child) => read(`/proc/${child}/comm`)?.trim() === name);
}

/**
 * Follows the CPU and peak RSS of some processes until they exit: the last reading before exit is the
 * figure, since /proc forgets a process once it is gone. `baseline()` marks the start of the workload.
 */
export function watchProcesses(pids, intervalMs = 10) {
  const last = new Map();
  const start = new Map();
  const sample = () => {
    for (const pid of pids) {
      const cpu = cpuMs(pid);
      const rss = peakRssBytes(pid);
      if (cpu !== undefined && rss !== undefined) last.set(pid, { cpu, rss });
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    baseline() {
      sample();
      for (const [pid, reading] of last) start.set(pid, reading.cpu);
    },
    stop() {
      clearInterval(timer);
      let cpu = 0;
      let rss = 0;
      for (const [pid, reading] of last) {
        cpu += reading.cpu - (start.get(pid) ?? 0);
        rss = Math.max(rss, reading.rss);
      }
      return last.size === 0 ? undefined : { cpuMs: cpu, peakRssBytes: rss };
    },
  };
}
