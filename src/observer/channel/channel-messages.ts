/**
 * Shared between the two threads without a message: [0] the time (epoch ms) by which the observer
 * must have finished, 0 while there is none; then what the record holds (its lines written or on
 * their way), so that the forwarding side can end the record right should the observer not answer:
 * [1] the last `seq`, [2] how many messages it accounts for whole, [3] 1 while the write these
 * describe is being issued, [4] the number of the stop signal that moved the deadline to its moment
 * (0: the deadline is --drain-timeout's), [5] the bytes the forwarding side has handed over so far
 * (what the observer has not observed of them is its backlog, messages on their way included),
 * [6] how many bytes the spill has written (see `channel/spill.ts`), [7] 1 once a spill write
 * failed, [8..] the bytes of each stream it accounts for (in frames, or counted in gaps).
 */
export const controlSlots = { deadline: 0, seq: 1, handled: 2, writing: 3, cutBy: 4, handedOver: 5, spillWritten: 6, spillFailed: 7, recorded: 8 } as const;
/** Streams counted in the record's bytes (stdio: c2s, s2c, stderr; HTTP: c2s, s2c, the bodies of requests and responses). */
export const recordedStreams = 3;
export const controlLength = controlSlots.recorded + recordedStreams;

/** What the record holds, as the observer last said: read by the forwarding side when it does not answer. */
export interface RecordProgress {
  lastSeq: number;
  /** Messages handed over whose entries are all in the record. */
  handled: number;
  /** Bytes of each stream in the record's frames or counted in its gaps. */
  recorded: number[];
}

/** Every batch may end with this: write everything out, then say `closed`. */
export type FinishMessage = { type: 'finish' };

/**
 * Messages back: the thread runs, bytes observed (so the forwarder knows how far behind it is), the
 * live view written out for the first `messages` messages (so the server's stderr can follow the
 * frames it came after), and the end.
 */
export type ObserverReply = { type: 'ready' } | { type: 'ack'; bytes: number; spilled: number } | { type: 'shown'; messages: number } | { type: 'closed' };

/**
 * A message that carries bytes: they count against how far behind the observer may fall; or that
 * names bytes in the spill (`spilled`: they count in its backlog, not in the room of memory).
 */
export type ChannelMessage = { type: string; data?: Uint8Array; spilled?: { length: number } };
