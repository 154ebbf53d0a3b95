import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What a spill puts in order: by time, then by the place the HAR gives it, then as taken. */
export interface Spilled {
  timeMs: number;
  order: number;
}

/** Written out in pieces of this size. */
const pieceBytes = 1024 * 1024;

/**
 * Items held on disk until they can be put in order: a HAR's frames are sorted by time before the
 * first is written, and holding their text in memory cost as much as the HAR itself (a 170 MB HAR
 * peaked at 509 MB). Only each item's time, order and place in the file stay in memory. The file
 * holds traffic: it is private (0600, in a directory of its own) and unlinked as soon as it is
 * open, so that nothing is left behind however the process ends.
 */
export function createSpill<T extends Spilled>() {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-spy-import-'));
  let fd: number | undefined;
  try {
    fd = openSync(join(dir, 'items'), 'w+', 0o600);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const file = fd;
  const times: number[] = [];
  const orders: number[] = [];
  const offsets: number[] = [];
  const lengths: number[] = [];
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let written = 0;
  let closed = false;

  const flush = () => {
    if (pendingBytes === 0) return;
    const piece = Buffer.concat(pending, pendingBytes);
    for (let at = 0; at < piece.length; ) at += writeSync(file, piece, at, piece.length - at, written + at);
    written += piece.length;
    pending = [];
    pendingBytes = 0;
  };

  return {
    get size() {
      return times.length;
    },
    push(item: T): void {
      const bytes = Buffer.from(JSON.stringify(item), 'utf8');
      times.push(item.timeMs);
      orders.push(item.order);
      offsets.push(written + pendingBytes);
      lengths.push(bytes.length);
      pending.push(bytes);
      pendingBytes += bytes.length;
      if (pendingBytes >= pieceBytes) flush();
    },
    /** The items in order, each read back from the file as it is asked for. */
    *sorted(): Generator<T> {
      flush();
      const index = Uint32Array.from(times.keys()).sort((a, b) => times[a]! - times[b]! || orders[a]! - orders[b]! || a - b);
      for (const at of index) {
        const bytes = Buffer.allocUnsafe(lengths[at]!);
        for (let got = 0; got < bytes.length; ) {
          const read = readSync(file, bytes, got, bytes.length - got, offsets[at]! + got);
          if (read === 0) throw new Error('the spilled items ended early');
          got += read;
        }
        yield JSON.parse(bytes.toString('utf8')) as T;
      }
    },
    close(): void {
      if (closed) return;
      closed = true;
      closeSync(file);
    },
  };
}
