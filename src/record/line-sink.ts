import { closeSync, openSync, write, writeSync } from 'node:fs';

export interface LineSinkOptions {
  /** Queued bytes beyond which new lines are dropped (and counted) instead of growing memory. */
  maxQueued?: number;
  /** How long lines may wait to be written together; a crash loses at most this much. */
  batchMs?: number;
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
  const batchMs = options.batchMs ?? 10;
  const batchBytes = 256 * 1024;
  const writeBytes = 1024 * 1024;
  let timer: NodeJS.Timeout | undefined;
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
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (writing || failed || fd === undefined) return settle();
    if (dropped > 0 && queued < maxQueued / 2) {
      const note = options.onDropped?.(dropped);
      dropped = 0;
      if (note) queue.push(note);
    }
    if (queue.length === 0) return settle();
    // Whole lines, about a MiB at a time: each write(2) stays atomic among appenders, and the
    // queue is never copied whole.
    let take = 0;
    let size = 0;
    while (take < queue.length && (take === 0 || size + queue[take]!.length <= writeBytes)) size += queue[take++]!.length;
    const data = Buffer.from(take === queue.length ? queue.join('') : queue.slice(0, take).join(''));
    queue = take === queue.length ? [] : queue.slice(take);
    queued -= size;
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
    /** Characters waiting to be written (the write in flight aside). */
    get queued() {
      return queued;
    },
    /** Queues one line (its newline included by the caller). */
    write(line: string) {
      if (failed || fd === undefined) return;
      // One line always fits when nothing waits: a frame as large as the parse limit is not lost.
      if (queued > 0 && queued + line.length > maxQueued) {
        dropped++;
        return;
      }
      queue.push(line);
      queued += line.length;
      if (writing) return;
      if (queued >= batchBytes) setImmediate(pump);
      else if (!timer) timer = setTimeout(pump, batchMs);
    },
    /** Resolves when everything queued so far is on disk (or failed). */
    flush(): Promise<void> {
      if (!writing && queue.length === 0 && dropped === 0) return Promise.resolve();
      return new Promise((resolve) => {
        idle.push(resolve);
        if (!writing) pump();
      });
    },
    /** Last resort at exit: write what is left synchronously and close. */
    closeSync() {
      if (timer) clearTimeout(timer);
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
