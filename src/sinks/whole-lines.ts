import { closeSync, constants, fstatSync, ftruncateSync, openSync, readSync, writeSync, type Stats } from 'node:fs';

const newline = 0x0a;

/**
 * After a write that put only the first `written` bytes of `data` (whole lines) at the end of a
 * regular file, cuts the file back to the last whole line: a full disk or a file size limit must
 * not leave half a line for readers to skip and the next appender to glue onto. Returns how many
 * of data's lines are in the file whole. A writer that shares the file cannot have appended after
 * the cut part: on a full file system its writes fail too.
 */
export function cutToWholeLine(fd: number, data: Buffer, written: number): number {
  const lastEnd = written === 0 ? -1 : data.lastIndexOf(newline, written - 1);
  const torn = written - (lastEnd + 1);
  if (torn > 0) {
    try {
      const stat = fstatSync(fd);
      if (stat.isFile() && stat.size >= torn) ftruncateSync(fd, stat.size - torn);
    } catch {
      // A file that cannot be cut keeps its torn end; the next appender starts on a fresh line.
    }
  }
  return lastEnd < 0 ? 0 : countLines(data, lastEnd + 1);
}

/** The lines (newlines) in the first `end` bytes of data. */
export function countLines(data: Buffer, end = data.length): number {
  let lines = 0;
  for (let at = data.indexOf(newline); at !== -1 && at < end; at = data.indexOf(newline, at + 1)) lines++;
  return lines;
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * At the last moment (closing, a gap, the last words), how long a full pipe's reader is given to take
 * what is left: one that is reading on takes it; one that stopped must not keep the spy from exiting.
 */
export const pipeWaitMs = 250;

/**
 * Writes whole lines synchronously; on a failure the file is cut back to its last whole line.
 * A full pipe (EAGAIN: the descriptor does not block) is given `waitMs` to take the rest from its
 * reader, and more while a line is half written: a pipe cannot be cut back, and a line left half
 * written would run into the next. Past that, the reader has stopped taking it: that is the error.
 * `torn`: the write stopped inside a line that could not be cut back.
 */
export function writeLinesSync(fd: number, data: Buffer, waitMs = 0): { lines: number; error?: NodeJS.ErrnoException; torn?: boolean } {
  let written = 0;
  const until = Date.now() + waitMs;
  const midLine = () => written > 0 && data[written - 1] !== newline;
  try {
    while (written < data.length) {
      try {
        written += writeSync(fd, data, written, data.length - written);
      } catch (error) {
        const full = (error as NodeJS.ErrnoException).code === 'EAGAIN';
        if (!full || Date.now() >= (midLine() ? until + waitMs : until)) throw full ? pipeStayedFull(error as NodeJS.ErrnoException) : error;
        Atomics.wait(pause, 0, 0, 2);
      }
    }
    return { lines: countLines(data) };
  } catch (error) {
    // A regular file is cut back to its last whole line; a pipe keeps what it took.
    return { lines: cutToWholeLine(fd, data, written), error: error as NodeJS.ErrnoException, torn: midLine() && !isRegular(fd) };
  }
}

/** A full pipe, said so: the system's "resource temporarily unavailable" tells a user nothing. */
function pipeStayedFull(error: NodeJS.ErrnoException): NodeJS.ErrnoException {
  return Object.assign(error, { message: 'its reader stopped taking it (the pipe stayed full)' });
}

function isRegular(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

/**
 * Runs `read` on a second, read-only open of the regular file opened as `fd` (at `path`), once that
 * open is known to be the same file (not one put in its place since): `stat` is the first open's,
 * `same` the second's. False when the file is empty or no regular file, is another, or cannot be read.
 */
function readSameFile(fd: number, path: string, follow: boolean, read: (reader: number, stat: Stats, same: Stats) => boolean): boolean {
  let reader: number | undefined;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size === 0) return false;
    reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (follow ? 0 : constants.O_NOFOLLOW));
    const same = fstatSync(reader);
    if (same.ino !== stat.ino || same.dev !== stat.dev) return false;
    return read(reader, stat, same);
  } catch {
    return false;
  } finally {
    if (reader !== undefined) closeSync(reader);
  }
}

/**
 * Whether the regular file opened as `fd` (at `path`) ends in the middle of a line: a writer before
 * this one was cut short (a full disk, a kill during a write). Read through a second, read-only
 * open of the same file; a file that cannot be read is taken to end whole.
 */
export function endsTorn(fd: number, path: string, follow: boolean): boolean {
  return readSameFile(fd, path, follow, (reader, _stat, same) => {
    const last = Buffer.alloc(1);
    return readSync(reader, last, 0, 1, same.size - 1) === 1 && last[0] !== newline;
  });
}

/** How far back from its end a file is read for the start of its last line. */
const tailBytes = 64 * 1024;

/**
 * Cuts the last line off a regular file that ends with whole lines (opened as `fd`, at `path`),
 * to make room for a line that says what was lost. False when there is none to cut, or it is
 * longer than can be looked back over, or the file cannot be read.
 */
export function cutLastLine(fd: number, path: string, follow: boolean): boolean {
  return readSameFile(fd, path, follow, (reader, stat) => {
    const start = Math.max(0, stat.size - tailBytes);
    const tail = Buffer.alloc(stat.size - start);
    const read = readSync(reader, tail, 0, tail.length, start);
    const before = tail.subarray(0, read).lastIndexOf(newline, read - 2);
    if (before === -1 && start > 0) return false;
    ftruncateSync(fd, start + before + 1);
    return true;
  });
}
