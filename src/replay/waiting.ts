import { sleep } from './deferred.js';
import type { LiveSession } from './live-session.js';
import type { RecordedFrame, RecordedSession } from './load.js';

/** How many of each notification the live server must have sent before a client frame goes out. */
export type AwaitedNotifications = ReadonlyMap<string, number>;

/**
 * The server notifications the recorded client had in hand when it sent `frame`, when the recording
 * shows it was waiting for them: one came after the client's previous frame. A timer-driven
 * `notifications/message` or `resources/updated` then comes before the client goes on, live too.
 */
export function awaitedBefore(session: RecordedSession, frame: RecordedFrame): AwaitedNotifications | undefined {
  const at = session.frames.indexOf(frame);
  const methods = new Set<string>();
  for (let index = at - 1; index >= 0 && session.frames[index]!.dir !== 'c2s'; index--) {
    const earlier = session.frames[index]!;
    if (earlier.kind === 'notification' && earlier.method) methods.add(earlier.method);
  }
  if (methods.size === 0) return undefined;
  const wanted = new Map<string, number>();
  for (const earlier of session.frames.slice(0, at)) {
    if (earlier.dir === 's2c' && earlier.kind === 'notification' && methods.has(earlier.method!)) wanted.set(earlier.method!, (wanted.get(earlier.method!) ?? 0) + 1);
  }
  return wanted;
}

/** Waits until the live server sent as many of each awaited notification, it is gone, or the deadline passes. */
export async function awaitNotifications(live: LiveSession, wanted: AwaitedNotifications, deadline: number) {
  const arrived = () => [...wanted].every(([method, count]) => live.notifications.filter((message) => message.method === method).length >= count);
  while (!arrived() && !live.gone.settled && performance.now() < deadline) await sleep(20);
}

/** `--speed 1`: the recorded gap between two client frames is kept, counted from when the earlier one went out. */
export function createPacer(speed: 0 | 1) {
  let last: { recordedT: number; sentAt: number } | undefined;
  return {
    async before(frame: RecordedFrame) {
      if (speed === 1 && last) await sleep(frame.t - last.recordedT - (performance.now() - last.sentAt));
      last = { recordedT: frame.t, sentAt: performance.now() };
    },
  };
}
