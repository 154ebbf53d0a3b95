/** The columns of the console's log (see log.ts), a chunk of entries at a time. */

/** Entries per chunk: columns grow a chunk at a time, never copied as they grow. */
export const chunkBits = 14;
export const chunkSize = 1 << chunkBits;
export const none = 0xffffffff;

/** Flags of an entry. */
export const routine = 1;
/** A request that belongs to another (a server's request during a tool call): not a call of its own. */
export const relatedRequest = 2;
/** Some field the index holds could not be held exactly (too long, too large): read the entry again. */
export const partial = 4;

/** In a 16-bit column: no value, and a value too large for it (the log keeps it aside). */
export const narrowNone = 0xffff;
export const narrowWide = 0xfffe;

/**
 * Sizes (a line's, a frame's) take 16 bits: most frames are well under 64 KiB, and one larger is
 * kept in `wide` by its entry. Such an entry comes with as many bytes of file, so `wide` stays
 * small beside the record; the two bytes saved on each of two columns are some 8 MiB over 1 GiB.
 */
export function setNarrow(column: Uint16Array, at: number, value: number, wide: Map<number, number>, index: number): void {
  if (value < narrowWide) column[at] = value;
  else {
    column[at] = narrowWide;
    wide.set(index, value);
  }
}

export function getNarrow(column: Uint16Array, at: number, wide: Map<number, number>, index: number): number | undefined {
  const value = column[at]!;
  return value === narrowNone ? undefined : value === narrowWide ? wide.get(index) : value;
}

export class Chunk {
  /** Where the line starts: its low 32 bits, and the bits above them (files up to 1 TiB); 0xff high: none. */
  offsetLow = new Uint32Array(chunkSize);
  offsetHigh = new Uint8Array(chunkSize).fill(0xff);
  /** The line's bytes, to `wide` (see below). */
  length = new Uint16Array(chunkSize);
  seq = new Uint32Array(chunkSize);
  /** Milliseconds after the session's first entry. */
  time = new Uint32Array(chunkSize).fill(none);
  /** Microseconds. */
  latency = new Uint32Array(chunkSize).fill(none);
  /** The frame's bytes, to `wide`; `narrowNone`: none. */
  bytes = new Uint16Array(chunkSize).fill(narrowNone);
  /** The session's slot; past 65534 sessions, `overflow` has it. */
  session = new Uint16Array(chunkSize);
  method = new Uint16Array(chunkSize);
  tool = new Uint16Array(chunkSize);
  pair = new Int32Array(chunkSize).fill(-1);
  kind = new Uint8Array(chunkSize);
  dir = new Uint8Array(chunkSize);
  flags = new Uint8Array(chunkSize);
}
