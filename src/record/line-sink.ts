import { closeSync, fstatSync, write, writeSync } from 'node:fs';
import { openOutputFile } from './open-output.js';

export interface LineSinkOptions {
  /** Queued bytes beyond which new lines are dropped (and counted) instead of growing memory. */
  maxQueued?: number;
  /** How long lines may wait to be written together; a crash loses at most this much. */
  batchMs?: number;
  /** Called once, on the first failure to open or write. */
  onError?: (error: NodeJS.ErrnoException) => void;
  /** Called when lines had to be dropped, with a line to write in their place once there is room. */
  onDropped?: (count: number) => string | undefined;
  /** A path the user named (may be a link, a FIFO, a device), or a default one (a regular file of ours). */
  named?: boolean;
  /** Something the user should know that does not stop the file (its mode could not be tightened). */
  onWarning?: (message: string) => void;
  /** The file was deleted while being written and was started anew: a line to open the new one with. */
  onReopened?: () => string | undefined;
}

/**
 * One line to write: its text, or its pieces in order (a record entry's metadata, the frame's own
 * bytes spliced in unescaped, the closing brace), so a frame is never copied into a string.
 */
export type Line = string | readonly (string | Buffer)[];

/**
 * A place in the queue, between lines: `reached` is called just before the write that ends with it
 * is issued (a write in flight completes even when the thread is stopped), and what it returns
 * just after, so that a thread stopped in between can be told apart.
 */
class Checkpoint {
  constructor(readonly reached: () => (() => void) | void) {}
}

type Queued = Line | Checkpoint;

/** A line's size for the queue's accounting: characters of text plus bytes of buffers (about its bytes). */
function weightOf(line: Queued): number {
  if (typeof line === 'string') return line.length;
  if (line instanceof Checkpoint) return 0;
  let weight = 0;
  for (const piece of line) weight += piece.length;
  return weight;
}

/** Encodes lines `from`..`to` of the queue into one buffer, each piece copied once. */
function encodeLines(queue: readonly Queued[], from: number, to: number): Buffer {
  let size = 0;
  for (let index = from; index < to; index++) {
    const line = queue[index]!;
    if (line instanceof Checkpoint) continue;
    if (typeof line === 'string') size += Buffer.byteLength(line);
    else for (const piece of line) size += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length;
  }
  const data = Buffer.allocUnsafe(size);
  let at = 0;
  for (let index = from; index < to; index++) {
    const line = queue[index]!;
    if (line instanceof Checkpoint) continue;
    if (typeof line === 'string') at += data.write(line, at);
    else for (const piece of line) at += typeof piece === 'string' ? data.write(piece, at) : (data.set(piece, at), piece.length);
  }
  return data;
}

/** The checkpoints among lines `from`..`to`: how many, and the last (each one sums up all before it). */
function checkpointsIn(queue: readonly Queued[], from: number, to: number): { count: number; last?: Checkpoint } {
  let count = 0;
  let last: Checkpoint | undefined;
  for (let index = from; index < to; index++) {
    const item = queue[index]!;
    if (!(item instanceof Checkpoint)) continue;
    count++;
    last = item;
  }
  return { count, last };
}

/** How often a file being written is checked for having been deleted under the spy. */
const deletedCheckMs = 1000;
/** How long to wait before writing again to a FIFO or device that is full. */
const retryMs = 10;

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
  let queue: Queued[] = [];
  /** Checkpoints in the queue: only then do writes look for one to end at. */
  let marks = 0;
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
    marks = 0;
    head = 0;
    queued = 0;
    options.onError?.(error);
  }

  let regular = false;
  let lastCheck = performance.now();

  function open(): boolean {
    const opened = openOutputFile(path, { named: options.named ?? false });
    if (!opened.ok) {
      fail(Object.assign(opened.error, { message: opened.why }));
      return false;
    }
    fd = opened.fd;
    if (opened.warning) options.onWarning?.(opened.warning);
    try {
      regular = fstatSync(fd).isFile();
    } catch {
      regular = false;
    }
    return true;
  }
  open();

  /** A record deleted during the run (a log rotation, a cleanup) is started anew, once noticed. */
  function reopenIfDeleted() {
    if (!regular || fd === undefined || performance.now() - lastCheck < deletedCheckMs) return;
    lastCheck = performance.now();
    try {
      if (fstatSync(fd).nlink > 0) return;
      closeSync(fd);
    } catch {
      return;
    }
    fd = undefined;
    if (!open()) return;
    const note = options.onReopened?.();
    if (note) {
      queue.splice(head, 0, note);
      queued += weightOf(note);
    }
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
    reopenIfDeleted();
    if (fd === undefined) return settle();
    // Whole lines, about a MiB at a time: each write(2) stays atomic among appenders, and the
    // queue is never copied whole.
    let end = head;
    let size = 0;
    while (end < queue.length && (end === head || size + weightOf(queue[end]!) <= writeBytes)) size += weightOf(queue[end++]!);
    // A write ends at a checkpoint where one follows, so what a checkpoint says is on file is all there is.
    for (let next = end; marks > 0 && !(queue[end - 1] instanceof Checkpoint) && next < queue.length; next++) {
      if (!(queue[next] instanceof Checkpoint)) continue;
      while (end <= next) size += weightOf(queue[end++]!);
      break;
    }
    const data = encodeLines(queue, head, end);
    const passed = checkpointsIn(queue, head, end);
    marks -= passed.count;
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
    if (data.length === 0) {
      passed.last?.reached()?.();
      return pump();
    }
    writing = true;
    const issued = passed.last?.reached();
    writeAll(data, 0);
    issued?.();
    wakeBelow();
  }

  function writeAll(data: Buffer, offset: number) {
    if (fd === undefined) {
      writing = false;
      return settle();
    }
    write(fd, data, offset, data.length - offset, null, (error, written) => {
      if (error?.code === 'EAGAIN') return setTimeout(() => writeAll(data, offset), retryMs);
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
    write(line: Line) {
      if (failed || fd === undefined) return;
      const weight = weightOf(line);
      // One line always fits when nothing waits: a frame as large as the parse limit is not lost.
      if (queued > 0 && queued + weight > maxQueued) {
        dropped++;
        return;
      }
      queue.push(line);
      queued += weight;
      if (writing) return;
      if (queued >= batchBytes) setImmediate(pump);
      else if (!timer) timer = setTimeout(pump, batchMs);
    },
    /** Marks the end of the lines queued so far: `reached` is called as they are written (see `Checkpoint`). */
    checkpoint(reached: () => (() => void) | void) {
      if (failed || fd === undefined) return;
      queue.push(new Checkpoint(reached));
      marks++;
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
        if (!failed && queue.length > head) {
          const data = encodeLines(queue, head, queue.length);
          const issued = checkpointsIn(queue, head, queue.length).last?.reached();
          try {
            writeSync(fd, data);
          } finally {
            issued?.();
          }
        }
      } catch (error) {
        fail(error as NodeJS.ErrnoException);
      }
      try {
        closeSync(fd);
      } catch {
        // Closed either way.
      }
      queue = [];
      marks = 0;
      head = 0;
      fd = undefined;
    },
  };
}

export type LineSink = ReturnType<typeof openLineSink>;
