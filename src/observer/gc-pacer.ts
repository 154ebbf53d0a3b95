import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type CollectGarbage = (options?: { type: 'minor' | 'major' }) => void;

/**
 * Node frees the memory of a spent Buffer only once its small JS wrapper is collected, and while
 * bytes stream through with little else happening, collections come late: a spy passing hundreds of
 * MiB would hold tens of MiB of spent chunks. A young-generation collection per few MiB moved is
 * cheap (well under a millisecond on our small heaps) and keeps the memory flat.
 */
export function createGcPacer(bytesBetween = 8 * 1024 * 1024) {
  let collect: CollectGarbage | undefined;
  try {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as CollectGarbage;
  } catch {
    collect = undefined;
  }
  let moved = 0;
  return (bytes: number) => {
    moved += bytes;
    if (moved < bytesBetween || !collect) return;
    moved = 0;
    collect({ type: 'minor' });
  };
}
