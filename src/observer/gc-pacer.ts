import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type CollectGarbage = (options?: { type: 'minor' | 'major'; execution?: 'sync' | 'async' }) => void;

/**
 * Node frees the memory of a spent Buffer only once its small JS wrapper is collected, and while
 * bytes stream through with little else happening, collections come late: a spy passing hundreds of
 * MiB would hold tens of MiB of spent chunks. A young-generation collection per few MiB moved is
 * cheap (well under a millisecond on our small heaps) and keeps the memory flat.
 *
 * A buffer that outlives two young collections (a record line waiting for its write while the
 * base64 of the next spans fills the young generation; a spilled span read back) is freed only by a
 * full collection, which V8 starts on its own once some 64 MB more is held outside the heap. Through
 * a flood of small frames the observer thread held up to 40 MiB of such spent buffers, and the
 * process kept the memory: peak RSS 175 MiB. With `majorPast`, once what is held outside the heap
 * has grown that far above the least it held since the last full collection was asked for, one is
 * started, and V8 runs it in steps alongside (asked for at once, it freed nothing seen: the peak
 * stayed at 171): 120-122 MiB, for a few % more CPU in the spy at most (within the noise of 6
 * alternated runs).
 */
export function createGcPacer(bytesBetween = 8 * 1024 * 1024, options: { majorPast?: number } = {}) {
  let collect: CollectGarbage | undefined;
  try {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as CollectGarbage;
  } catch {
    collect = undefined;
  }
  const { majorPast } = options;
  let moved = 0;
  /** The least memory held outside the heap since the last full collection was asked for. */
  let low = Number.POSITIVE_INFINITY;
  return (bytes: number) => {
    moved += bytes;
    if (moved < bytesBetween || !collect) return;
    moved = 0;
    if (majorPast !== undefined) {
      const held = getHeapStatistics().external_memory;
      low = Math.min(low, held);
      if (held - low > majorPast) {
        low = held;
        collect({ type: 'major', execution: 'async' });
        return;
      }
    }
    collect({ type: 'minor' });
  };
}
