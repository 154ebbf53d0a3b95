import type { Readable } from 'node:stream';

/** No bytes for this long (and none held back) after a process exited: its pipes hold nothing more. */
const quietMs = 50;

/**
 * Resolves once every stream has ended, or has been quiet for a moment while not paused (what a
 * pipe still held is read at once; a writer that lives on, a child of the server, is not waited
 * for), and in any case after `maxMs` or once `until` resolves. `postpone`: while it is true of a
 * stream (its reading waits for the record, with --lossless), `maxMs` has not run out yet.
 */
export function waitForQuiet(streams: Readable[], maxMs: number, until?: Promise<void>, postpone?: (stream: Readable) => boolean): Promise<void> {
  const open = streams.filter((stream) => !stream.readableEnded && !stream.destroyed);
  if (open.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    let lastData = performance.now();
    const onData = () => (lastData = performance.now());
    let waiting = true;
    const done = () => {
      if (!waiting) return;
      waiting = false;
      clearTimeout(deadline);
      clearInterval(poll);
      for (const stream of open) {
        stream.off('data', onData);
        stream.off('end', check);
        stream.off('close', check);
      }
      resolve();
    };
    function check() {
      if (open.every((stream) => stream.readableEnded || stream.destroyed)) return done();
    }
    // A timer may run before the bytes that are ready are read: only a quiet check that still
    // holds after the next poll of the event loop counts.
    const poll = setInterval(() => {
      if (performance.now() - lastData < quietMs || open.some((stream) => stream.isPaused() && !stream.readableEnded)) return;
      const seen = lastData;
      setImmediate(() => {
        if (seen === lastData) done();
      });
    }, quietMs / 2);
    const atDeadline = () => {
      if (postpone && open.some((stream) => postpone(stream) && !stream.readableEnded && !stream.destroyed)) deadline = setTimeout(atDeadline, quietMs);
      else done();
    };
    let deadline = setTimeout(atDeadline, Math.max(0, maxMs));
    void until?.then(done);
    for (const stream of open) {
      stream.on('data', onData);
      stream.on('end', check);
      stream.on('close', check);
    }
    check();
  });
}
