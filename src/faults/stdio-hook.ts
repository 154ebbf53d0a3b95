// The stdio transport's fault hook, joined to the observer: lines are handed over whole, each with its marks.
import type { StdioObserverHandle } from '../observer/stdio/stdio-handle.js';
import type { StdioFaultHook } from '../transports/stdio.js';
import { createFaultMatcher } from './matcher.js';
import { seededRandom } from './random.js';
import type { FaultRule } from './rule-types.js';
import { createStdioFaults } from './stdio-faults.js';

export function stdioFaultHook(plan: { rules: FaultRule[]; seed: number }, observer: StdioObserverHandle, stderr: (bytes: Buffer) => void): StdioFaultHook {
  const random = seededRandom(plan.seed);
  const matcher = createFaultMatcher(plan.rules, random);
  return (io) =>
    createStdioFaults(matcher, random, io, {
      line: (dir, bytes, mark) => {
        if (mark) observer.markNext(dir, mark);
        observer.chunk(dir, bytes);
      },
      fault: (fields) => observer.event('fault', fields),
      stderr: (bytes) => {
        stderr(bytes);
        observer.chunk('stderr', bytes);
      },
    });
}
