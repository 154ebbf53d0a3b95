// Fault rules between a client's streams and a stand-in that talks over streams (`mock --fault`):
// the same engine as the stdio spy's, with nothing recorded.
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { createFaultMatcher } from './matcher.js';
import { seededRandom } from './random.js';
import type { FaultRule } from './rule-types.js';
import { createStdioFaults } from './stdio-faults.js';

/**
 * The streams the stand-in should use instead of `input` and `output`: what the client sends reaches
 * it through the rules, what it answers reaches the client through them. `disconnect` ends its input.
 */
export function pipeThroughFaults(
  plan: { rules: FaultRule[]; seed: number },
  input: Readable,
  output: Writable,
  stderr: Writable,
): { input: Readable; output: Writable } {
  const random = seededRandom(plan.seed);
  const toMock = new PassThrough();
  const fromMock = new PassThrough();
  const faults = createStdioFaults(
    createFaultMatcher(plan.rules, random),
    random,
    {
      write: (dir, bytes) => {
        if (dir === 'c2s' && toMock.writable) toMock.write(bytes);
        if (dir === 's2c' && output.writable) output.write(bytes);
      },
      disconnect: () => toMock.end(),
    },
    { line: () => {}, fault: () => {}, stderr: (bytes) => stderr.write(bytes) },
  );
  input.on('data', (chunk: Buffer) => faults.chunk('c2s', chunk));
  input.once('end', () => faults.end('c2s', () => toMock.end()));
  fromMock.on('data', (chunk: Buffer) => faults.chunk('s2c', chunk));
  fromMock.once('end', () => faults.end('s2c', () => {}));
  toMock.once('end', () => faults.stop());
  return { input: toMock, output: fromMock };
}
