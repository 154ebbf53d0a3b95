import { closeSync, openSync, write, writeSync } from 'node:fs';

export interface LineSinkOptions {
  /** Queued bytes beyond which new lines are dropped (and counted) instead of growing memory. */
  maxQueued?: number;
  /** Called once, on the first failure to open or write. */
  onError?: (error: NodeJS.ErrnoException) => void;
  /** Called when lines had to be dropped, with a line to write in their place once there is room. */
  onDropped?: (count: number) => string | undefined;
}

/**
 * An append-only file of lines, written off the forwarding path. Each write(2) holds whole lines
 * on an O_APPEND descriptor, so several writers sharing one file never interleave mid-line.
 */
export function openLineSink(path: string, options: LineSinkOptions = {}) {
  const maxQueued = options.maxQueued ?? 64 * 1024 * 1024;
  let fd: number | undefined;
  let failed = false;
  let queue: string[] = [];
  let queued = 0;
  let writing = false;
  let dropped = 0;
  let idle: (() => void)[] = [];

  function fail(error: NodeJS.ErrnoException) {
    if (failed) return;
    failed = true;
    queue = [];
    queued = 0;
    options.onError?.(error);
  }

  try {
    fd = openSync(path, 'a', 0o600);
  } catch (error) {
    fail(error as NodeJS.ErrnoException);
  }

  function settle() {
    if (writing || queue.length > 0) return;
    const waiting = idle;
    idle = [];
    for (const resolve of waiting) resolve();
  }

  function pump() {
    if (writing || failed || fd === undefined) return settle();
    if (dropped > 0 && queued < maxQueued / 2) {
      const note = options.onDropped?.(dropped);
      dropped = 0;
      if (note) queue.push(note);
    }
    if (queue.length === 0) return settle();
    const data = Buffer.from(queue.join(''));
    queue = [];
    queued = 0;
    writing = true;
    writeAll(data, 0);
  }

  function writeAll(data: Buffer, offset: number) {
    write(fd!, data, offset, data.length - offset, null, (error, written) => {
      if (error) {
        writing = false;
        fail(error);
        return settle();
      }
      if (offset + written < data.length) return writeAll(data, offset + written);
      writing = false;
      pump();
    });
  }

  return {
    get ok() {
      return !failed;
    },
    /** Queues one line (its newline included by the caller). */
    write(line: string) {
      if (failed || fd === undefined) return;
      if (queued + line.length > maxQueued) {
        dropped++;
        return;
      }
      queue.push(line);
      queued += line.length;
      if (!writing) setImmediate(pump);
    },
    /** Resolves when everything queued so far is on disk (or failed). */
    flush(): Promise<void> {
      if (!writing && queue.length === 0) return Promise.resolve();
      return new Promise((resolve) => {
        idle.push(resolve);
        if (!writing) pump();
      });
    },
    /** Last resort at exit: write what is left synchronously and close. */
    closeSync() {
      if (fd === undefined) return;
      try {
        if (!failed && queue.length > 0) writeSync(fd, queue.join(''));
        closeSync(fd);
      } catch (error) {
        fail(error as NodeJS.ErrnoException);
      }
      queue = [];
      fd = undefined;
    },
  };
}

export type LineSink = ReturnType<typeof openLineSink>;
