import { closeSync, fstatSync, write } from 'node:fs';
import { openOutputFile } from '../record/open-output.js';
import { Checkpoint, checkpointsIn, encodeLines, gatherLines, weightOf, type Line, type Queued } from './line-encoding.js';
import { countLines, cutLastLine, cutToWholeLine, endsTorn, pipeWaitMs, writeLinesSync } from './whole-lines.js';
import { piecesBuffer, writePieces, type PendingRetry } from './write-pieces.js';

export type { Line } from './line-encoding.js';

export interface LineSinkOptions {
  /** Queued bytes beyond which new lines are dropped (and counted) instead of growing memory. */
  maxQueued?: number;
  /** How long lines may wait to be written together; a crash loses at most this much. */
  batchMs?: number;
  /**
   * Called once, on the first failure to open or write, with the lines that did not reach the file.
   * What it returns renders the gap for a count: the file itself is given it, room made if need be.
   */
  onError?: (error: NodeJS.ErrnoException, lost: number) => ((lost: number) => string) | undefined;
  /** The file ended mid-line when opened (a writer before was cut short): a line to start with, after a newline. */
  onTorn?: () => string | undefined;
  /** Called when lines had to be dropped, with a line to write in their place once there is room. */
  onDropped?: (count: number) => string | undefined;
  /** A path the user named (may be a link, a FIFO, a device), or a default one (a regular file of ours). */
  named?: boolean;
  /** --allow-readable: a named file others can read takes the traffic all the same. */
  allowReadable?: boolean;
  /** The file was deleted while being written and was started anew: a line to open the new one with. */
  onReopened?: () => string | undefined;
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
  /** The write a full pipe sent back, waiting to be tried again. */
  let retry: PendingRetry | undefined;
  const waitFor = (pending: PendingRetry | undefined) => (retry = pending);
  let dropped = 0;
  let idle: (() => void)[] = [];
  let head = 0;
  let below: { limit: number; resolve: () => void }[] = [];

  /** Lines queued or counted as dropped: what a failure leaves unwritten. */
  const waitingLines = () => queue.length - head - marks + dropped;

  function fail(error: NodeJS.ErrnoException, lost = waitingLines(), written = false, torn = false) {
    if (failed) return;
    failed = true;
    queue = [];
    marks = 0;
    head = 0;
    queued = 0;
    dropped = 0;
    const gapOf = options.onError?.(error, lost);
    if (!gapOf || !written || fd === undefined) return;
    if (regular) writeGap(gapOf, lost);
    // A pipe whose reader is only slow takes the gap once it has read on; one a line was left half
    // written in gets the gap on a line of its own.
    else writeLinesSync(fd, Buffer.from(`${torn ? '\n' : ''}${gapOf(lost)}`), pipeWaitMs);
  }

  /** How many of its last lines a failed file gives up, at most, to make room for its gap. */
  const maxCut = 256;

  /**
   * The gap goes into the failed file itself when it takes it whole. Where it does not (the disk is
   * full to the byte), the file's last lines give way to it, one at a time, each counted in it: a
   * file that says what it lost is worth more than one more entry.
   */
  function writeGap(gapOf: (lost: number) => string, lost: number) {
    for (let count = lost; count <= lost + maxCut; count++) {
      if (!writeLinesSync(fd!, Buffer.from(gapOf(count))).error) return;
      if (!cutLastLine(fd!, path, options.named ?? false)) return;
    }
  }

  /** A write failed with `whole` of data's lines in the file (it was cut back to them): what the file lacks is counted. */
  function failWrite(error: NodeJS.ErrnoException, data: Buffer, whole: number, torn = false) {
    fail(error, countLines(data) - whole + waitingLines(), true, torn);
  }

  let regular = false;
  let lastCheck = performance.now();

  function open(): boolean {
    const opened = openOutputFile(path, { named: options.named ?? false, allowReadable: options.allowReadable ?? false });
    if (!opened.ok) {
      fail(Object.assign(opened.error, { message: opened.why }));
      return false;
    }
    fd = opened.fd;
    try {
      regular = fstatSync(fd).isFile();
    } catch {
      regular = false;
    }
    // An append after a torn end starts on a fresh line, and says why there is half a line above it.
    if (regular && endsTorn(fd, path, options.named ?? false)) {
      const start = `\n${options.onTorn?.() ?? ''}`;
      queue.splice(head, 0, start);
      queued += start.length;
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
    // A line of MiBs (a large frame) goes alone, from its pieces: it is not copied to be written.
    const first = queue[head]!;
    if (Array.isArray(first) && weightOf(first) > writeBytes) return writeLarge(first);
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
    const buffers = gatherLines(queue, head, end);
    const passed = checkpointsIn(queue, head, end);
    marks -= passed.count;
    advance(end);
    queued -= size;
    if (buffers.length === 1 && buffers[0]!.length === 0) {
      passed.last?.reached()?.();
      return pump();
    }
    writing = true;
    const issued = passed.last?.reached();
    if (buffers.length === 1) writeAll(buffers[0]!, 0);
    else writePieces(fd, buffers, retryMs, piecesWritten(buffers), waitFor);
    issued?.();
    wakeBelow();
  }

  /** What follows a write of pieces: the next write, or, on a failure, the file cut back to whole lines and the rest counted. */
  function piecesWritten(pieces: readonly (string | Buffer)[]) {
    return (written: number, error?: NodeJS.ErrnoException) => {
      writing = false;
      if (error) {
        const data = piecesBuffer(pieces);
        failWrite(error, data, cutToWholeLine(fd!, data, written));
        return settle();
      }
      pump();
    };
  }

  /**
   * Moves the head past the lines taken to be written, letting go of them at once: the slots
   * before the head are compacted away only now and then, and a captured span's line is hundreds
   * of KiB (4,096 of them held the observer's memory at 300 MiB through a flood).
   */
  function advance(end: number) {
    if (end === queue.length) {
      queue = [];
      head = 0;
      return;
    }
    (queue as unknown[]).fill(undefined, head, end);
    head = end;
    if (head > 4096 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
  }

  /** Writes the line at the head of the queue alone, with the checkpoints right after it. */
  function writeLarge(line: readonly (string | Buffer)[]) {
    let end = head + 1;
    while (end < queue.length && queue[end] instanceof Checkpoint) end++;
    const passed = checkpointsIn(queue, head, end);
    marks -= passed.count;
    queued -= weightOf(line);
    advance(end);
    writing = true;
    const issued = passed.last?.reached();
    writePieces(fd!, line, retryMs, piecesWritten(line), waitFor);
    issued?.();
    wakeBelow();
  }

  function writeAll(data: Buffer, offset: number) {
    if (fd === undefined) {
      writing = false;
      return settle();
    }
    write(fd, data, offset, data.length - offset, null, (error, written) => {
      if (error?.code === 'EAGAIN') {
        const timer = setTimeout(() => {
          retry = undefined;
          writeAll(data, offset);
        }, retryMs);
        retry = { timer, rest: () => data.subarray(offset) };
        return;
      }
      if (error) {
        writing = false;
        failWrite(error, data, cutToWholeLine(fd!, data, offset));
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
      // A write a full pipe sent back goes first: the line it is in the middle of is finished.
      const rest = retry?.rest();
      if (retry) clearTimeout(retry.timer);
      retry = undefined;
      if (!failed && (queue.length > head || rest)) {
        const queuedLines = encodeLines(queue, head, queue.length);
        const data = rest ? Buffer.concat([rest, queuedLines]) : queuedLines;
        const issued = checkpointsIn(queue, head, queue.length).last?.reached();
        queue = [];
        head = 0;
        marks = 0;
        try {
          const result = writeLinesSync(fd, data, pipeWaitMs);
          if (result.error) failWrite(result.error, data, result.lines, result.torn);
        } finally {
          issued?.();
        }
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
