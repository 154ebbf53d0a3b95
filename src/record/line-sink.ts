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
  let head = 0;
  let below: { limit: number; resolve: () => void }[] = [];

  function fail(error: NodeJS.ErrnoException) {
    if (failed) return;
    failed = true;
    queue = [];
    head = 0;
    queued = 0;
    options.onError?.(error);
  }

  try {
    fd = openSync(path, 'a', 0o600);
  } catch (error) {
    fail(error as NodeJS.ErrnoException);
  }

  function wakeBelow() {
    if (below.length === 0) return;
    const still: typeof below = [];
    for (const waiter of below) {
      if (queued <= waiter.limit || failed) waiter.resolve();
      else still.push(waiter);
    }
    below = still;
  }

  function settle() {
    wakeBelow();
    if (writing || queue.length > head) return;
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
    if (queue.length === head) return settle();
    // Whole lines, about a MiB at a time: each write(2) stays atomic among appenders, and the
    // queue is never copied whole.
    let end = head;
    let size = 0;
    while (end < queue.length && (end === head || size + queue[end]!.length <= writeBytes)) size += queue[end++]!.length;
    const data = Buffer.from(end === head + 1 ? queue[head]! : queue.slice(head, end).join(''));
    if (end === queue.length) {
      queue = [];
      head = 0;
    } else {
      head = end;
      if (head > 4096 && head * 2 > queue.length) {
        queue = queue.slice(head);
        head = 0;
      }
    }
    queued -= size;
    writing = true;
    writeAll(data, 0);
    wakeBelow();
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
    /** Resolves once no more than `limit` characters wait (or the sink failed): for pacing a producer. */
    whenBelow(limit: number): Promise<void> {
      if (queued <= limit || failed || fd === undefined) return Promise.resolve();
      return new Promise((resolve) => below.push({ limit, resolve }));
    },
    /** Resolves when everything queued so far is on disk (or failed). */
    flush(): Promise<void> {
      if (!writing && queue.length === head && dropped === 0) return Promise.resolve();
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
        if (!failed && queue.length > head) writeSync(fd, queue.slice(head).join(''));
        closeSync(fd);
      } catch (error) {
        fail(error as NodeJS.ErrnoException);
      }
      queue = [];
      head = 0;
      fd = undefined;
    },
  };
}

export type LineSink = ReturnType<typeof openLineSink>;
