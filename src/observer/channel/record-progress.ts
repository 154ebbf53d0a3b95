import { controlSlots, recordedStreams, type RecordProgress } from './channel-messages.js';

/**
 * How much longer than its grace the observer may take while it still writes out what it had made
 * (the observer, finishing, gives its files as long while they still take more: serve-channel.ts).
 */
export const writeOutMs = 10_000;

/** What the record holds, as the observer last said (see `controlSlots`). */
export function readProgress(control: BigInt64Array): RecordProgress {
  const recorded = Array.from({ length: recordedStreams }, (_, index) => Number(Atomics.load(control, controlSlots.recorded + index)));
  return { lastSeq: Number(Atomics.load(control, controlSlots.seq)), handled: Number(Atomics.load(control, controlSlots.handled)), recorded };
}

/**
 * Past its deadline the observer only writes out what it had made and counts the rest, which is
 * soon done unless the machine is too busy to run it: it is given more time, a `graceMs` at a
 * time, while its record still advances or a write is being issued, up to `writeOutMs`, rather
 * than lose lines it had made. Resolves early once `ended` (it closed the files, or its thread ended).
 */
export async function whileWritingOut(control: BigInt64Array, ended: Promise<void>, graceMs: number): Promise<void> {
  let done = false;
  void ended.then(() => (done = true));
  const until = Date.now() + writeOutMs;
  let seen = readProgress(control);
  while (!done && Date.now() < until) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([ended, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    const now = readProgress(control);
    const writing = Atomics.load(control, controlSlots.writing) === 1n;
    if (!writing && now.lastSeq === seen.lastSeq && now.handled === seen.handled) return;
    seen = now;
  }
}
