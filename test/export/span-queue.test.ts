import { describe, expect, it } from 'vitest';
import { createSpanQueue } from '../../src/export/span-queue.js';
import type { SpanData } from '../../src/export/telemetry-model.js';

const span = (n: number) => ({ spanId: String(n) }) as SpanData;

describe('the span queue in front of a collector', () => {
  it('holds at most max spans for a collector that never answers, drops the rest with a count, and says it once', async () => {
    const sent: number[] = [];
    const failures: string[] = [];
    // A collector that takes the request and never answers.
    const queue = createSpanQueue((spans) => (sent.push(spans.length), new Promise(() => {})), {
      max: 100,
      batch: 10,
      delayMs: 1,
      onFirstFailure: (reason) => failures.push(reason),
    });
    for (let n = 0; n < 10_000; n++) queue.push(span(n));
    // One request at a time: one batch in flight, the rest wait; past max, new spans are dropped as they come.
    expect(sent).toEqual([10]);
    expect(failures).toHaveLength(1);
    const outcome = await queue.close(50);
    expect(outcome.dropped).toBe(10_000);
    expect(failures).toHaveLength(1);
  });

  it('sends everything to a collector that answers, in batches, nothing dropped', async () => {
    const sent: number[] = [];
    const queue = createSpanQueue(async (spans) => (sent.push(spans.length), { ok: true }), { batch: 256, delayMs: 1, onFirstFailure: () => {} });
    for (let n = 0; n < 600; n++) queue.push(span(n));
    expect(await queue.close(5000)).toEqual({ dropped: 0 });
    expect(sent.reduce((a, b) => a + b, 0)).toBe(600);
    expect(Math.max(...sent)).toBe(256);
  });

  it('counts the spans a refusing collector did not take, with its reason', async () => {
    const queue = createSpanQueue(async () => ({ ok: false, reason: 'Bad Request' }), { batch: 5, delayMs: 1, onFirstFailure: () => {} });
    for (let n = 0; n < 12; n++) queue.push(span(n));
    expect(await queue.close(5000)).toEqual({ dropped: 12, reason: 'Bad Request' });
  });
});
