import { sleep } from './deferred.js';
import type { LiveSession } from './live-session.js';
import type { RecordedFrame, RecordedSession } from './load.js';

/** How many of each notification the live server must have sent before a client frame goes out. */
export type AwaitedNotifications = ReadonlyMap<string, number>;

/**
 * For each client frame sent while the recorded client was waiting for notifications (one came after
 * its previous frame), how many of each it had seen by then: a timer-driven `notifications/message`
 * or `resources/updated` then comes before the client goes on, live too. One pass over the session.
 */
export function awaitedNotificationsOf(session: RecordedSession): Map<RecordedFrame, AwaitedNotifications> {
  const awaited = new Map<RecordedFrame, AwaitedNotifications>();
  const seen = new Map<string, number>();
  let since = new Set<string>();
  for (const frame of session.frames) {
    if (frame.dir === 's2c' && frame.kind === 'notification' && frame.method) {
      seen.set(frame.method, (seen.get(frame.method) ?? 0) + 1);
      since.add(frame.method);
    }
    if (frame.dir !== 'c2s') continue;
    if (since.size > 0) awaited.set(frame, new Map([...since].map((method) => [method, seen.get(method)!])));
    since = new Set();
  }
  return awaited;
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
