import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { holdReading } from '../../src/transports/read-gate.js';

// A stream held for two reasons at once (a full destination, and with --lossless an observer
// behind) is read again only once both have let go.

const lettingGo = () => {
  let release: () => void = () => {};
  const until = new Promise<void>((resolve) => (release = resolve));
  return { until, release };
};

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('holdReading', () => {
  it('resumes only when the last hold lets go', async () => {
    const stream = new PassThrough();
    stream.on('data', () => {});
    const full = lettingGo();
    const behind = lettingGo();
    holdReading(stream, full.until);
    holdReading(stream, behind.until);
    expect(stream.isPaused()).toBe(true);
    full.release();
    await settled();
    expect(stream.isPaused()).toBe(true);
    behind.release();
    await settled();
    expect(stream.isPaused()).toBe(false);
  });

  it('does not resume a stream destroyed meanwhile', async () => {
    const stream = new PassThrough();
    const hold = lettingGo();
    holdReading(stream, hold.until);
    stream.destroy();
    hold.release();
    await settled();
    expect(stream.isPaused()).toBe(true);
  });
});
