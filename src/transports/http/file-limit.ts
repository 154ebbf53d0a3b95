import { readdirSync, readFileSync } from 'node:fs';

/** Files the spy may open beside its connections: the record and log rewritten, a module loaded late, a DNS lookup. */
const spareFiles = 12;

/** The process's soft limit of open files (`ulimit -n`), where the system tells it (Linux); undefined otherwise or unlimited. */
export function openFileLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line ? Number(line[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** How many files the process has open now, where the system tells it (Linux). */
function openFileCount(): number | undefined {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return undefined;
  }
}

/**
 * How many client connections the spy can hold at once under its limit of open files, once it is
 * listening: each takes a file, and one more for its connection to the server. Beyond that the
 * system would reset them unseen; the spy refuses them itself, and says so. Undefined: no known bound.
 */
export function connectionCapacity(): { connections: number; limit: number } | undefined {
  const limit = openFileLimit();
  const open = openFileCount();
  if (limit === undefined || open === undefined || limit > 1 << 20) return undefined;
  return { connections: Math.max(1, Math.floor((limit - open - spareFiles) / 2)), limit };
}
