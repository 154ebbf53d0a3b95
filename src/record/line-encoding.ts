// The lines a line sink queues: their pieces, their weight, and the bytes they make.

/**
 * One line to write: its text, or its pieces in order (a record entry's metadata, the frame's own
 * bytes spliced in unescaped, the closing brace), so a frame is never copied into a string.
 */
export type Line = string | readonly (string | Buffer)[];

/** A line's size for the queue's accounting: characters of text plus bytes of buffers (about its bytes). */
export function weightOf(line: Line): number {
  if (typeof line === 'string') return line.length;
  let weight = 0;
  for (const piece of line) weight += piece.length;
  return weight;
}

/** Encodes lines `from`..`to` of the queue into one buffer, each piece copied once. */
export function encodeLines(queue: readonly Line[], from: number, to: number): Buffer {
  let size = 0;
  for (let index = from; index < to; index++) {
    const line = queue[index]!;
    if (typeof line === 'string') size += Buffer.byteLength(line);
    else for (const piece of line) size += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length;
  }
  const data = Buffer.allocUnsafe(size);
  let at = 0;
  for (let index = from; index < to; index++) {
    const line = queue[index]!;
    if (typeof line === 'string') at += data.write(line, at);
    else for (const piece of line) at += typeof piece === 'string' ? data.write(piece, at) : (data.set(piece, at), piece.length);
  }
  return data;
}
