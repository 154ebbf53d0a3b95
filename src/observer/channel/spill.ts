import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, statfsSync, unlinkSync, writev } from 'node:fs';
import { join } from 'node:path';
import { controlSlots } from './channel-messages.js';

/**
 * Where bytes that the observer has no room for go when they are to be captured: a file of the
 * forwarding side's, written by Node's I/O threads (at the traffic's priority: the observer thread
 * at its lower one may hardly run while the traffic fills both cores), read back by the observer
 * when it comes to them, in the order of the messages that name them. It is unlinked as soon as it
 * is open (mode 0600): nothing of it is left when the spy exits, however it exits, and no other user
 * can open it. A chunk goes to the file instead of memory; a message of a few numbers names it.
 */
export interface SpillPlace {
  /** The file's descriptor, shared by both threads. */
  fd: number;
  /** Where the bytes are in the file. */
  at: number;
  length: number;
  /** How many bytes the spill will have written once these are (see `controlSlots.spillWritten`). */
  upTo: number;
}

/** Bytes on their way to the file at most: past them a chunk is lost as it was before (a slow disk). */
const maxPending = 32 * 1024 * 1024;
/** Bytes spilled and not yet read back at most: past them a chunk is lost (a flood with no end). */
const maxLive = 1024 * 1024 * 1024;
/** Spilled bytes are gathered into blocks of at least this size, one write each. */
const blockSize = 256 * 1024;
/**
 * The spill takes at most this share of the space free on its disk (looked at again every
 * `lookEvery` bytes): the rest is the record's, which grows by a third more than what it captures.
 */
const shareOfFree = 0.25;
const lookEvery = 8 * 1024 * 1024;

/**
 * The forwarding side's spill. `dirs` are tried in order when the first chunk comes (the record's
 * directory first: the file holds what the record will). `control` tells the observer how far the
 * writes have got, and whether they failed.
 */
export function createSpill(dirs: readonly string[], control: BigInt64Array) {
  /** Undefined until the first chunk; null when no directory would take the file. */
  let fd: number | null | undefined;
  /** Bytes spilled since the file was opened: a count, not a place (the file starts over, see `base`). */
  let spilled = 0;
  /** Where in the file the count `spilled` is: the file starts over once everything in it was read back. */
  let base = 0;
  let readBack = 0;
  let pending = 0;
  let failed = false;
  let inFlight = false;
  const queue: { bytes: Buffer; at: number; upTo: number }[] = [];
  let block: Buffer | undefined;
  let used = 0;
  let blockAt = 0;
  /** The most bytes the spill may hold now (a share of its disk's free space), and when to look again. */
  let room = 0;
  let lookAt = 0;
  let dir = '';

  /** What a share of the free space of the spill's disk allows it to hold, besides what it holds now. */
  function lookAtDisk() {
    lookAt = spilled + lookEvery;
    try {
      const { bavail, bsize } = statfsSync(dir);
      room = Math.min(maxLive, spilled - readBack + bavail * bsize * shareOfFree);
    } catch {
      room = 0;
    }
  }

  function open(): number | null {
    for (const candidate of dirs) {
      const path = join(candidate, `.mcp-spy-spill-${process.pid}-${randomBytes(4).toString('hex')}`);
      try {
        const opened = openSync(path, 'wx+', 0o600);
        try {
          unlinkSync(path);
          dir = candidate;
        } catch {
          // Left as is when it cannot be unlinked: it must not outlive the spy under its name.
          closeSync(opened);
          continue;
        }
        return opened;
      } catch {
        // Not this directory (read-only, gone, a device's): the next one.
      }
    }
    return null;
  }

  /**
   * Writes every block waiting, in one call (they follow each other in the file): a write a block,
   * each started from the forwarding thread's callbacks, fell behind a flood of large frames.
   */
  function pump() {
    if (inFlight || queue.length === 0 || fd == null) return;
    const blocks = queue.splice(0);
    const { at } = blocks[0]!;
    const { upTo } = blocks.at(-1)!;
    let length = 0;
    for (const block of blocks) length += block.bytes.length;
    inFlight = true;
    writev(
      fd,
      blocks.map((block) => block.bytes),
      at,
      (error, written) => {
        inFlight = false;
        pending -= length;
        if (error || written < length) {
          // A full disk, say: what is not written is lost, and the observer counts it in a gap.
          failed = true;
          queue.length = 0;
          pending = 0;
          Atomics.store(control, controlSlots.spillFailed, 1n);
        } else Atomics.store(control, controlSlots.spillWritten, BigInt(upTo));
        Atomics.notify(control, controlSlots.spillWritten);
        pump();
      },
    );
  }

  /** Starts writing what was put since the last flush. */
  function flush() {
    if (block === undefined || used === 0) return;
    queue.push({ bytes: block.subarray(0, used), at: blockAt, upTo: spilled });
    block = undefined;
    used = 0;
    pump();
  }

  return {
    /**
     * Puts `chunk` in the spill (it is written with the batch it goes in: `flush`), or says undefined
     * when the spill cannot take it: no file, a failed write, too much waiting.
     */
    put(chunk: Buffer): SpillPlace | undefined {
      if (failed || chunk.length === 0) return undefined;
      if (fd === undefined) fd = open();
      if (fd === null) return undefined;
      if (spilled >= lookAt) lookAtDisk();
      if (pending + chunk.length > maxPending || spilled - readBack + chunk.length > room) return undefined;
      // Everything read back and nothing on its way (no block, no write in flight): start over.
      if (spilled === readBack && pending === 0) base = spilled;
      if (block === undefined || block.length - used < chunk.length) {
        flush();
        block = Buffer.allocUnsafeSlow(Math.max(blockSize, chunk.length));
        used = 0;
        blockAt = spilled - base;
      }
      chunk.copy(block, used);
      used += chunk.length;
      spilled += chunk.length;
      pending += chunk.length;
      return { fd, at: spilled - base - chunk.length, length: chunk.length, upTo: spilled };
    },
    /** Starts writing what was put since the last flush: at each batch's sending, before its messages go. */
    flush,
    /** The observer read `bytes` back (or counted them lost): their room is free again. */
    readBack(bytes: number) {
      readBack += bytes;
    },
    /** Closes the file (at the end, once the observer has stopped). */
    close() {
      if (typeof fd === 'number') closeSync(fd);
      fd = null;
    },
  };
}

/**
 * The observer's side: the bytes at `place`, once they are written (waiting for the forwarding
 * side's write, which a message may overtake), or undefined when they never will be (the write
 * failed) or the spy's time to finish ran out first.
 */
export function readSpilled(control: BigInt64Array, place: SpillPlace, overdue: () => boolean): Buffer | undefined {
  const upTo = BigInt(place.upTo);
  for (;;) {
    const written = Atomics.load(control, controlSlots.spillWritten);
    if (written >= upTo) break;
    if (Atomics.load(control, controlSlots.spillFailed) !== 0n || overdue()) return undefined;
    Atomics.wait(control, controlSlots.spillWritten, written, 20);
  }
  const bytes = Buffer.allocUnsafe(place.length);
  let got = 0;
  try {
    while (got < place.length) {
      const read = readSync(place.fd, bytes, got, place.length - got, place.at + got);
      if (read === 0) return undefined;
      got += read;
    }
  } catch {
    return undefined;
  }
  return bytes;
}
