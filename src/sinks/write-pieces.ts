import { writev } from 'node:fs';

/**
 * Writes one large line from its pieces with writev(2), so the line is never copied into one
 * buffer: a frame of MiBs would be held twice while it is written. One call is one append on an
 * O_APPEND descriptor, so the line does not interleave with another writer's, as a write(2) of it.
 * `done` gets the bytes written, and the error that stopped it if one did; EAGAIN (a full FIFO) is
 * retried after `retryMs`.
 */
export function writePieces(
  fd: number,
  pieces: readonly (string | Buffer)[],
  retryMs: number,
  done: (written: number, error?: NodeJS.ErrnoException) => void,
  waiting?: (retry: PendingRetry | undefined) => void,
) {
  const buffers = fewPieces(pieces.map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece)));
  const total = buffers.reduce((sum, buffer) => sum + buffer.length, 0);
  const from = (offset: number): Buffer[] => {
    const rest: Buffer[] = [];
    let skip = offset;
    for (const buffer of buffers) {
      if (skip >= buffer.length) skip -= buffer.length;
      else {
        rest.push(skip > 0 ? buffer.subarray(skip) : buffer);
        skip = 0;
      }
    }
    return rest;
  };
  const step = (offset: number) => {
    writev(fd, offset === 0 ? buffers : from(offset), (error, written) => {
      if (error?.code === 'EAGAIN') {
        const timer = setTimeout(() => {
          waiting?.(undefined);
          step(offset);
        }, retryMs);
        return waiting?.({ timer, rest: () => Buffer.concat(from(offset)) });
      }
      if (error) return done(offset, error);
      if (offset + written < total) return step(offset + written);
      done(total);
    });
  };
  step(0);
}

/**
 * A write that a full pipe sent back, waiting to be tried again: a last write at exit cancels it
 * and writes `rest` first, so that the line it was in the middle of is finished before any other.
 */
export interface PendingRetry {
  timer: NodeJS.Timeout;
  rest: () => Buffer;
}

/** A writev(2) takes so many pieces at most (IOV_MAX is 1024 on Linux): more are joined into that many, each copied. */
const maxPieces = 512;

function fewPieces(buffers: Buffer[]): Buffer[] {
  if (buffers.length <= maxPieces) return buffers;
  const each = Math.ceil(buffers.length / maxPieces);
  const joined: Buffer[] = [];
  for (let at = 0; at < buffers.length; at += each) joined.push(Buffer.concat(buffers.slice(at, at + each)));
  return joined;
}

/** The whole of a line's pieces as one buffer: for the rare failure that needs to look at its bytes. */
export function piecesBuffer(pieces: readonly (string | Buffer)[]): Buffer {
  return Buffer.concat(pieces.map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece)));
}
