/** A promise settled from outside, resolved at most once; `settled` tells whether it was. */
export function createDeferred<T = void>() {
  let resolve!: (value: T) => void;
  const state = { settled: false };
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return {
    promise,
    get settled() {
      return state.settled;
    },
    resolve(value: T) {
      if (state.settled) return;
      state.settled = true;
      resolve(value);
    },
  };
}

export type Deferred<T = void> = ReturnType<typeof createDeferred<T>>;

/** Waits for a promise, but no longer than `ms`; true when the promise won. */
export async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, ms));
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
