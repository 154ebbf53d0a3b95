import type { ExchangeObserver } from './forward.js';

const queue: (() => void)[] = [];
let scheduled = false;

function drain() {
  scheduled = false;
  const tasks = queue.splice(0);
  for (const task of tasks) task();
}

function later(task: () => void) {
  queue.push(task);
  if (!scheduled) {
    scheduled = true;
    setImmediate(drain);
  }
}

/**
 * The observer, called after the forwarded bytes have left: Node sends a message's writes on the
 * next tick, so observing in the same tick would hold every exchange up by the recording's time.
 * One queue for all exchanges keeps the record in the order the spy saw things.
 */
export function deferObserver(observer: ExchangeObserver): ExchangeObserver {
  const now = () => performance.timeOrigin + performance.now();
  return {
    requestChunk: (chunk) => later(() => observer.requestChunk(chunk)),
    requestEnd: (at = now()) => later(() => observer.requestEnd(at)),
    response: (status, headers, at = now()) => later(() => observer.response(status, headers, at)),
    responseChunk: (chunk, at = now()) => later(() => observer.responseChunk(chunk, at)),
    responseEnd: (at = now()) => later(() => observer.responseEnd(at)),
    endpointRewritten: (rewrite) => later(() => observer.endpointRewritten(rewrite)),
    failed: (failure, at = now()) => later(() => observer.failed(failure, at)),
  };
}

/** Resolves once every observation queued so far has run. */
export function observersSettled(): Promise<void> {
  return new Promise((resolve) => later(resolve));
}
