import { readFileSync } from 'node:fs';

/**
 * What starting the observer thread takes of the address space: its isolate's reservations (a code
 * range kept to 16 MiB, its heap), its stack and its allocator's arena, about 100 MiB on Linux
 * x64 as measured, and room for both threads to grow. Under a limit that leaves less (ulimit -v,
 * prlimit --as), starting it would abort the whole process (V8 cannot reserve its memory and
 * stops the process, past any handler); the spy forwards unrecorded instead.
 */
export const observerNeedsBytes = 128 * 1024 * 1024;

/** The address space left under a limit, in bytes; undefined without a limit, or where /proc does not say. */
export function addressSpaceLeft(): number | undefined {
  try {
    const limit = /^Max address space\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
    if (limit === undefined || limit === 'unlimited') return undefined;
    const used = /^VmSize:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return used === undefined ? undefined : Number(limit) - Number(used) * 1024;
  } catch {
    return undefined;
  }
}

/** Whether the observer thread can start without taking the process down; when not, says so once. */
export function roomForObserver(warn: (message: string) => void): boolean {
  const left = addressSpaceLeft();
  if (left === undefined || left >= observerNeedsBytes) return true;
  const mib = (bytes: number) => Math.max(0, Math.floor(bytes / (1024 * 1024)));
  warn(
    `the address-space limit leaves ${mib(left)} MiB, less than the ${mib(observerNeedsBytes)} MiB the observer thread needs: the traffic is forwarded unrecorded`,
  );
  return false;
}
