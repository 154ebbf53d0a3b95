import { setFlagsFromString } from 'node:v8';

/**
 * A small young generation for the console. Reading a record through makes much short-lived garbage
 * (each line parsed, then kept only as the log's index), and a batch of entries waits for the reducer
 * long enough to survive a scavenge: V8 then grows the young generation to its most (two semi-spaces
 * of 16 MiB), and a 256 MiB record peaked 20 MiB higher for it. The semi-spaces' most is fixed when
 * the heap is set up, before any code runs (`--max-semi-space-size` set here changes nothing); how
 * they grow is read at each scavenge, and a factor of 1 keeps them at their first size (1 MiB).
 * Set before the console allocates.
 */
export function tuneHeapForConsole(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--optimize-for-size');
}
