import { once } from 'node:events';
import type { Writable } from 'node:stream';

/**
 * Buffered text output that respects backpressure: a slow reader of our stdout (a pager, a pipe)
 * holds the reading of the record back instead of growing memory. What is written goes out at
 * the next turn of the event loop, so the first lines show at once.
 */
export function createOutput(stream: Writable, highWater = 256 * 1024) {
  let pending: string[] = [];
  let size = 0;
  let scheduled = false;
  let closed = false;
  stream.on('error', () => {
    // A reader that went away (EPIPE, `| head`): stop writing, quietly.
    closed = true;
  });

  /** Waits for the stream to take more, or to be gone (`once` rejects on the 'error' of a reader that left). */
  async function roomOrGone(): Promise<void> {
    try {
      await Promise.race([once(stream, 'drain'), once(stream, 'close')]);
    } catch {
      closed = true;
    }
  }

  function flushNow(): boolean {
    scheduled = false;
    if (pending.length === 0 || closed) return true;
    const text = pending.join('');
    pending = [];
    size = 0;
    return stream.write(text);
  }

  return {
    get closed() {
      return closed;
    },
    /** Queues text; resolves when there is room for more. */
    async write(text: string): Promise<void> {
      if (closed) return;
      pending.push(text);
      size += text.length;
      if (size >= highWater) {
        if (!flushNow() && !closed) await roomOrGone();
      } else if (!scheduled) {
        scheduled = true;
        setImmediate(flushNow);
      }
    },
    async end(): Promise<void> {
      if (!flushNow() && !closed) await roomOrGone();
    },
  };
}

export type Output = ReturnType<typeof createOutput>;
