// For the tests that hold under a busy machine: CPU hogs beside the spy, killed after each test.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach } from 'vitest';

/**
 * For a test file: `start()` starts two processes that spin on the CPU (`yes` to /dev/null), as a
 * busy machine has, and resolves once they run; they are killed after each test.
 */
export function cpuHogs(count = 2): { start: () => Promise<void> } {
  const hogs: ChildProcess[] = [];
  afterEach(() => {
    for (const hog of hogs.splice(0)) hog.kill('SIGKILL');
  });
  return {
    async start() {
      for (let index = 0; index < count; index++) {
        const hog = spawn('yes', [], { stdio: ['ignore', 'ignore', 'ignore'] });
        hogs.push(hog);
        await new Promise((resolve, reject) => hog.once('spawn', resolve).once('error', reject));
      }
    },
  };
}
