/**
 * Shared between the two threads without a message: [0] the time (epoch ms) by which the observer
 * must have finished, 0 while there is none; [1] the last `seq` the observer wrote.
 */
export const controlSlots = { deadline: 0, seq: 1 } as const;

/** Every batch may end with this: write everything out, then say `closed`. */
export type FinishMessage = { type: 'finish' };

/**
 * Messages back: the thread runs, bytes observed (so the forwarder knows how far behind it is), the
 * live view written out for the first `messages` messages (so the server's stderr can follow the
 * frames it came after), and the end.
 */
export type ObserverReply = { type: 'ready' } | { type: 'ack'; bytes: number } | { type: 'shown'; messages: number } | { type: 'closed' };

/** A message that carries bytes: they count against how far behind the observer may fall. */
export type ChannelMessage = { type: string; data?: Uint8Array };
