import { write } from 'node:fs';

/**
 * Our stderr, written off the event loop: a client that never reads the spy's stderr must not stall
 * the traffic. The live view is droppable (and says so); the server's own stderr is never dropped
 * but pushes back on the server, as a full pipe would without the spy.
 */
export function createStderrOut(fd = 2, limit = 1024 * 1024) {
  let queue: Buffer[] = [];
  let queued = 0;
  let writing = false;
  let dropped = 0;
  let broken = false;
  const drainWaiters = new Set<() => void>();
  let idleWaiters: (() => void)[] = [];

  function wakeDrainWaiters() {
    for (const resolve of drainWaiters) resolve();
    drainWaiters.clear();
  }

  function pump() {
    if (writing) return;
    if (queue.length === 0 || broken) {
      queue = [];
      queued = 0;
      wakeDrainWaiters();
      for (const resolve of idleWaiters) resolve();
      idleWaiters = [];
      return;
    }
    const data = queue.length === 1 ? queue[0]! : Buffer.concat(queue);
    queue = [];
    queued = 0;
    writing = true;
    writeAll(data, 0);
  }

  function writeAll(data: Buffer, offset: number) {
    write(fd, data, offset, data.length - offset, null, (error, written) => {
      if (error && error.code === 'EAGAIN') return setTimeout(() => writeAll(data, offset), 5);
      if (error) broken = true;
      else if (offset + written < data.length) return writeAll(data, offset + written);
      writing = false;
      // Waiters are woken only once there is room, and kept until then: clearing them while the
      // queue is still full would leave the server's stderr paused for good.
      if (queued <= limit || broken) wakeDrainWaiters();
      if (dropped > 0 && !broken) {
        queue.push(
          Buffer.from(`mcp-spy: live view fell behind, ${dropped} line(s) not shown here (the record has every frame, or a gap where it could not keep up)\n`),
        );
        dropped = 0;
      }
      pump();
    });
  }

  function enqueue(data: Buffer) {
    queue.push(data);
    queued += data.length;
    if (!writing) setImmediate(pump);
  }

  return {
    /** A live-view line: dropped when stderr is not keeping up. */
    line(text: string) {
      if (broken) return;
      if (queued > limit) {
        dropped++;
        return;
      }
      enqueue(Buffer.from(`${text}\n`));
    },
    /** Bytes that must get through (the server's stderr); false means: wait for `drained()`. */
    pass(chunk: Buffer): boolean {
      if (broken) return true;
      enqueue(chunk);
      return queued <= limit;
    },
    drained(): Promise<void> {
      if (queued <= limit || broken) return Promise.resolve();
      return new Promise((resolve) => {
        drainWaiters.add(resolve);
        if (!writing) setImmediate(pump);
      });
    },
    /** Resolves when everything queued has been written. */
    flush(): Promise<void> {
      if (!writing && queue.length === 0) return Promise.resolve();
      return new Promise((resolve) => {
        idleWaiters.push(resolve);
        if (!writing) pump();
      });
    },
  };
}

export type StderrOut = ReturnType<typeof createStderrOut>;

/** Problems of the spy itself, said once each on stderr however often they happen. */
export function warnOnce(out: StderrOut): (message: string) => void {
  const said = new Set<string>();
  return (message) => {
    if (said.has(message)) return;
    said.add(message);
    out.line(`mcp-spy: ${message}`);
  };
}
