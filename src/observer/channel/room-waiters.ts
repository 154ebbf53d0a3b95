/**
 * With --lossless, the readers the forwarding side stopped because the observer was too far behind:
 * each resumes once the backlog is down to its mark, or at once when the observer is gone.
 */
export function createRoomWaiters() {
  let waiters: [mark: number, resume: () => void][] = [];
  return {
    /** Resolves once the backlog is at most `mark` bytes. */
    wait(mark: number): Promise<void> {
      return new Promise((resolve) => waiters.push([mark, resolve]));
    },
    /** The backlog is now `behind` bytes; `all`: nothing holds readers back any more. */
    wake(behind: number, all = false) {
      if (waiters.length === 0) return;
      const waiting = waiters;
      waiters = [];
      for (const waiter of waiting) {
        if (all || behind <= waiter[0]) waiter[1]();
        else waiters.push(waiter);
      }
    },
  };
}
