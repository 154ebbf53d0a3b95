// The lines a line sink queues: their pieces, their weight, and the bytes they make.

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
export class Checkpoint {
  constructor(readonly reached: () => (() => void) | void) {}
}

/** What a line sink queues: lines, and checkpoints between them. */
export type Queued = Line | Checkpoint;

/** A line's size for the queue's accounting: characters of text plus bytes of buffers (about its bytes). */
export function weightOf(line: Queued): number {
  if (typeof line === 'string') return line.length;
  if (line instanceof Checkpoint) return 0;
  let weight = 0;
  for (const piece of line) weight += piece.length;
  return weight;
}

/** Encodes lines `from`..`to` of the queue into one buffer, each piece copied once. */
export function encodeLines(queue: readonly Queued[], from: number, to: number): Buffer {
  return gatherLines(queue, from, to, Number.POSITIVE_INFINITY)[0]!;
}

/** A buffer at least this large is written from where it is (writev), not copied into the batch. */
const inPlaceBytes = 64 * 1024;

/**
 * Lines `from`..`to` of the queue as the buffers to write, in order: text and small pieces copied
 * into one buffer per run of them, and each buffer of `inPlace` bytes or more as it is (a captured
 * span's line, a spliced frame of hundreds of KiB), so the bytes of a flood are not copied once more
 * into every write. Always one buffer, maybe empty, when nothing is that large.
 */
export function gatherLines(queue: readonly Queued[], from: number, to: number, inPlace = inPlaceBytes): Buffer[] {
  const buffers: Buffer[] = [];
  let run: (string | Buffer)[] = [];
  let size = 0;
  const endRun = () => {
    const data = Buffer.allocUnsafe(size);
    let at = 0;
    for (const piece of run) {
      if (typeof piece === 'string') at += data.write(piece, at);
      else {
        data.set(piece, at);
        at += piece.length;
      }
    }
    buffers.push(data);
    run = [];
    size = 0;
  };
  const add = (piece: string | Buffer) => {
    if (typeof piece !== 'string' && piece.length >= inPlace) {
      if (run.length > 0) endRun();
      buffers.push(piece);
      return;
    }
    size += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length;
    run.push(piece);
  };
  for (let index = from; index < to; index++) {
    const line = queue[index]!;
    if (line instanceof Checkpoint) continue;
    if (typeof line === 'string') add(line);
    else for (const piece of line) add(piece);
  }
  if (run.length > 0 || buffers.length === 0) endRun();
  return buffers;
}

/** The checkpoints among lines `from`..`to`: how many, and the last (each one sums up all before it). */
export function checkpointsIn(queue: readonly Queued[], from: number, to: number): { count: number; last?: Checkpoint } {
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
