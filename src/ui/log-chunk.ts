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

export class Chunk {
  /** Where the line starts: its low 32 bits, and the bits above them (files up to 1 TiB); 0xff high: none. */
  offsetLow = new Uint32Array(chunkSize);
  offsetHigh = new Uint8Array(chunkSize).fill(0xff);
  length = new Uint32Array(chunkSize);
  seq = new Uint32Array(chunkSize);
  /** Milliseconds after the session's first entry. */
  time = new Uint32Array(chunkSize).fill(none);
  /** Microseconds. */
  latency = new Uint32Array(chunkSize).fill(none);
  bytes = new Uint32Array(chunkSize).fill(none);
  /** The session's slot; past 65534 sessions, `overflow` has it. */
  session = new Uint16Array(chunkSize);
  method = new Uint16Array(chunkSize);
  tool = new Uint16Array(chunkSize);
  pair = new Int32Array(chunkSize).fill(-1);
  kind = new Uint8Array(chunkSize);
  dir = new Uint8Array(chunkSize);
  flags = new Uint8Array(chunkSize);
}
