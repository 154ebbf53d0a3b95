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
    else
      for (const piece of line) {
        if (typeof piece === 'string') at += data.write(piece, at);
        else {
          data.set(piece, at);
          at += piece.length;
        }
      }
  }
  return data;
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
