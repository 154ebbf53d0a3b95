/**
 * How long the oldest byte handed to the observer has waited to be observed. Bytes are counted as
 * they go over and as the observer acknowledges them; the time a run of bytes went over is kept in
 * marks (one per `markMs`, so a burst costs a few entries, not one per chunk).
 */
export function createLagMeter(markMs = 5) {
  /** [bytes handed over up to and including this mark, when its first byte went]. */
  const marks: [number, number][] = [];
  let head = 0;
  let sent = 0;
  let acked = 0;

  return {
    /** `bytes` went over at `nowMs`. */
    sent(bytes: number, nowMs: number) {
      sent += bytes;
      const last = marks.length > head ? marks[marks.length - 1]! : undefined;
      if (last && nowMs - last[1] < markMs) last[0] = sent;
      else marks.push([sent, nowMs]);
    },
    /** The observer has observed `bytes` more. */
    acked(bytes: number) {
      acked += bytes;
      while (head < marks.length && marks[head]![0] <= acked) head++;
      if (head === marks.length) {
        marks.length = 0;
        head = 0;
      } else if (head > 1024) {
        marks.splice(0, head);
        head = 0;
      }
    },
    /** How long, at `nowMs`, the oldest byte not yet observed has waited (0 when none waits). */
    lagMs(nowMs: number): number {
      return head < marks.length ? nowMs - marks[head]![1] : 0;
    },
  };
}
