import { describe, expect, it } from 'vitest';
import { createLagMeter } from '../../src/observer/channel/lag.js';

describe('the lag meter (the backlog bounded in time)', () => {
  it('is the wait of the oldest byte not yet observed, and nothing once all are', () => {
    const lag = createLagMeter(5);
    expect(lag.lagMs(100)).toBe(0);
    lag.sent(10, 100);
    lag.sent(10, 102); // the same mark: within 5 ms
    lag.sent(10, 200);
    expect(lag.lagMs(300)).toBe(200);
    lag.acked(15); // part of the first mark: its bytes still wait
    expect(lag.lagMs(300)).toBe(200);
    lag.acked(5);
    expect(lag.lagMs(300)).toBe(100);
    lag.acked(10);
    expect(lag.lagMs(300)).toBe(0);
  });

  it('keeps a few marks for a long burst, not one per chunk', () => {
    const lag = createLagMeter(5);
    for (let t = 0; t < 100_000; t++) lag.sent(1, t / 100); // 1,000 ms of chunks every 10 us
    expect(lag.lagMs(1000)).toBe(1000);
    lag.acked(99_000);
    expect(lag.lagMs(1000)).toBeGreaterThan(5);
    expect(lag.lagMs(1000)).toBeLessThanOrEqual(15);
  });
});
