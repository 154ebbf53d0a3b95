import type { StderrOut } from '../sinks/stderr-out.js';

/** Past this, a held stderr chunk goes out anyway: an observer that is behind must not hold up the server's own words for long. */
const maxHoldMs = 1000;
/** Bytes held beyond which the server's stderr is paused, as a full pipe would pause it. */
const maxHeldBytes = 1024 * 1024;

export interface StderrOrder {
  /** Takes a chunk of the server's stderr; false means: wait for `drained()` before more. */
  pass(chunk: Buffer): boolean;
  drained(): Promise<void>;
  /** The server has exited: what is held goes out now, in order. */
  release(): void;
}

/**
 * The server's stderr, written after the live view's lines for the frames handed to the observer
 * before it (the live view is written on the observer's thread, the stderr here): a line a request
 * made the server log is not printed above that request. Nothing is dropped: a chunk waits at most
 * `maxHoldMs`, in order, and the held bytes push back on the server as a full pipe would.
 */
export function orderStderr(out: StderrOut, mark: () => number, shownThrough: (mark: number) => Promise<void>): StderrOrder {
  const held: { chunk: Buffer; mark: number }[] = [];
  let heldBytes = 0;
  let releasing = false;
  let released = false;
  let emptied: (() => void)[] = [];

  async function releaseInOrder() {
    if (releasing) return;
    releasing = true;
    while (held.length > 0) {
      const head = held[0]!;
      if (!released) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([shownThrough(head.mark), new Promise<void>((resolve) => (timer = setTimeout(resolve, maxHoldMs)))]);
        clearTimeout(timer);
      }
      held.shift();
      heldBytes -= head.chunk.length;
      out.pass(head.chunk);
    }
    releasing = false;
    for (const resolve of emptied) resolve();
    emptied = [];
  }

  return {
    pass(chunk) {
      held.push({ chunk, mark: mark() });
      heldBytes += chunk.length;
      void releaseInOrder();
      return heldBytes <= maxHeldBytes;
    },
    async drained() {
      if (held.length > 0) await new Promise<void>((resolve) => emptied.push(resolve));
      await out.drained();
    },
    release() {
      released = true;
      void releaseInOrder();
    },
  };
}
