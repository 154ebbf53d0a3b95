import { sleep } from '../recording/deferred.js';
import type { LiveSession } from './live-session.js';
import type { RecordedFrame, RecordedSession } from '../recording/load.js';

/** How many of each notification the live server must have sent before a client frame goes out. */
export type AwaitedNotifications = ReadonlyMap<string, number>;

/**
 * Requests that ask about a thing the server announces changes of, by the notification and the
 * parameter that name it: a recorded answer given after such a notification tells of the changed thing.
 */
const subjects: Readonly<Record<string, { notification: string; key: string }>> = {
  'tasks/get': { notification: 'notifications/tasks/status', key: 'taskId' },
  'tasks/result': { notification: 'notifications/tasks/status', key: 'taskId' },
  'resources/read': { notification: 'notifications/resources/updated', key: 'uri' },
};

const paramOf = (frame: RecordedFrame, key: string): unknown => (frame.message.params as Record<string, unknown> | undefined)?.[key];

/**
 * How many of its subject's notifications a request's recorded answer came after, when one came
 * between the request and its answer (a `tasks/get` sent as the task completed, answered
 * `completed`): the live request then waits for the live server to reach that point too.
 */
function answeredAfter(frames: readonly RecordedFrame[], at: number, seen: ReadonlyMap<string, number>): [string, number] | undefined {
  const request = frames[at]!;
  const subject = request.kind === 'request' && request.method ? subjects[request.method] : undefined;
  const value = subject && paramOf(request, subject.key);
  if (!subject || value === undefined) return undefined;
  let count = seen.get(subject.notification) ?? 0;
  let told = false;
  for (let next = at + 1; next < frames.length; next++) {
    const frame = frames[next]!;
    if (frame.dir === 's2c' && frame.kind !== 'notification' && frame.kind !== 'request' && frame.id === request.id) break;
    if (frame.dir !== 's2c' || frame.method !== subject.notification) continue;
    count++;
    told ||= paramOf(frame, subject.key) === value;
  }
  return told ? [subject.notification, count] : undefined;
}

/**
 * For each client frame sent while the recorded client was waiting for notifications (one came after
 * its previous frame), how many of each it had seen by then: a timer-driven `notifications/message`
 * or `resources/updated` then comes before the client goes on, live too. The same for a request
 * whose recorded answer followed a notification about what it asks (answeredAfter): the recorded
 * order of answers is kept, not only that of the client's frames.
 */
export function awaitedNotificationsOf(session: RecordedSession): Map<RecordedFrame, AwaitedNotifications> {
  const awaited = new Map<RecordedFrame, AwaitedNotifications>();
  const seen = new Map<string, number>();
  let since = new Set<string>();
  session.frames.forEach((frame, at) => {
    if (frame.dir === 's2c' && frame.kind === 'notification' && frame.method) {
      seen.set(frame.method, (seen.get(frame.method) ?? 0) + 1);
      since.add(frame.method);
    }
    if (frame.dir !== 'c2s') return;
    const wanted = new Map([...since].map((method) => [method, seen.get(method)!]));
    const after = answeredAfter(session.frames, at, seen);
    if (after) wanted.set(after[0], Math.max(after[1], wanted.get(after[0]) ?? 0));
    if (wanted.size > 0) awaited.set(frame, wanted);
    since = new Set();
  });
  return awaited;
}

/** How long a wait goes on before the replay says what it waits for: a quiet wait looks like a hang. */
export const quietWaitMs = 2000;

/** Calls `say` once if `wait` has not settled after quietWaitMs. */
export function sayIfLong(wait: Promise<unknown>, say: (() => void) | undefined): void {
  if (!say) return;
  const timer = setTimeout(say, quietWaitMs);
  void wait.finally(() => clearTimeout(timer));
}

/** How the replay names a recorded frame to the user: `#12 tools/list (id 3)`, as its report does. */
export function frameLabel(frame: RecordedFrame): string {
  return `#${frame.seq} ${frame.method ?? frame.kind}${frame.id !== undefined ? ` (id ${JSON.stringify(frame.id)})` : ''}`;
}

/**
 * Waits until the live server sent as many of each awaited notification, it is gone, or the deadline
 * passes; a long wait is said through `say` (what it waits for, before which frame, how many came).
 */
export async function awaitNotifications(
  live: LiveSession,
  wanted: AwaitedNotifications,
  deadline: number,
  before: RecordedFrame,
  say?: (text: string) => void,
) {
  const count = (method: string) => live.notifications.filter((message) => message.method === method).length;
  const arrived = () => [...wanted].every(([method, want]) => count(method) >= want);
  const waiting = (async () => {
    while (!arrived() && !live.gone.settled && performance.now() < deadline) await sleep(20);
  })();
  sayIfLong(
    waiting,
    say &&
      (() => {
        const what = [...wanted].filter(([method, want]) => count(method) < want).map(([method, want]) => `${method} (${count(method)} of ${want} so far)`);
        say(
          `waiting up to ${Math.round((deadline - performance.now()) / 1000)}s more for ${what.join(', ')}: the recorded server sent them before ${frameLabel(before)}`,
        );
      }),
  );
  await waiting;
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
