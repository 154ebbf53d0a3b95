import type { Readable } from 'node:stream';

/** How many reasons each stream has not to be read now (a full destination, an observer behind). */
const holds = new WeakMap<Readable, number>();

/**
 * Stops reading `stream` until `until` resolves. Several holds may overlap (the peer's pipe is full
 * and, with --lossless, the observer is behind): reading resumes once the last of them is let go,
 * not when the first is.
 */
export function holdReading(stream: Readable, until: Promise<void>): void {
  holds.set(stream, (holds.get(stream) ?? 0) + 1);
  stream.pause();
  void until.then(() => {
    const left = (holds.get(stream) ?? 1) - 1;
    holds.set(stream, left);
    if (left === 0 && !stream.destroyed) stream.resume();
  });
}

/** Resolves at the next `drain` of `to`: what a full destination waits for. */
export function drained(to: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => to.once('drain', () => resolve()));
}
