import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { createGcPacer } from '../../src/observer/gc-pacer.js';

const MiB = 1024 * 1024;
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/**
 * Spends `total` bytes of buffers that each outlive two young collections (as a record line
 * waiting for its write does), telling `pace` of each; resolves with the most held outside the heap
 * at any point, and what is held once the pacer's collections have had time to run.
 */
async function spendPromoted(pace: (bytes: number) => void, total: number): Promise<{ most: number; after: number }> {
  const young = createGcPacer(0);
  let most = 0;
  for (let spent = 0; spent < total; spent += 8 * 256 * 1024) {
    const waiting = Array.from({ length: 8 }, () => Buffer.alloc(256 * 1024, 1));
    // Two young collections while they wait: they are in the old generation from here on.
    young(1);
    young(1);
    waiting.length = 0;
    pace(8 * 256 * 1024);
    most = Math.max(most, getHeapStatistics().external_memory);
    await settle();
  }
  for (let index = 0; index < 10; index++) await settle();
  return { most, after: getHeapStatistics().external_memory };
}

describe("the observer's GC pacer", () => {
  it('frees spent buffers that young collections cannot, once 4 MiB more is held outside the heap', async () => {
    const base = getHeapStatistics().external_memory;
    const paced = await spendPromoted(createGcPacer(4 * MiB, { majorPast: 4 * MiB }), 64 * MiB);
    // Left to V8, some 64 MB more is held before it collects them (the spy's observer held 40 MiB).
    console.log(`paced: most ${((paced.most - base) / MiB).toFixed(1)} MiB, after ${((paced.after - base) / MiB).toFixed(1)}`);
    expect(paced.most - base).toBeLessThan(24 * MiB);
    expect(paced.after - base).toBeLessThan(16 * MiB);
  });

  it('without `majorPast`, young collections leave them (what the pacing is for)', async () => {
    const base = getHeapStatistics().external_memory;
    const young = await spendPromoted(createGcPacer(4 * MiB), 64 * MiB);
    console.log(`young only: most ${((young.most - base) / MiB).toFixed(1)} MiB, after ${((young.after - base) / MiB).toFixed(1)}`);
    expect(young.most - base).toBeGreaterThan(24 * MiB);
  });
});
