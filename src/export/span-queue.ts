import type { SpanData } from './telemetry-model.js';

export type SendResult = { ok: true } | { ok: false; reason: string };

export interface SpanQueueOptions {
  /** Spans waiting at most: past this, new spans are dropped (and counted), never queued without bound. */
  max?: number;
  /** Spans per export request. */
  batch?: number;
  /** How long a span may wait for others to fill a batch. */
  delayMs?: number;
  /** The first failure, once: the collector is down, slow or refusing. */
  onFirstFailure: (reason: string) => void;
  /** Why a request still unanswered at close is unanswered, when known (a refused connection being retried). */
  pendingReason?: () => string | undefined;
}

/**
 * Hands spans to an exporter in batches, one request at a time, off the forwarding path: a collector
 * that is down, slow or refusing costs memory up to `max` spans, then spans are dropped and counted.
 */
export function createSpanQueue(send: (spans: SpanData[]) => Promise<SendResult>, options: SpanQueueOptions) {
  const max = options.max ?? 2048;
  const batch = options.batch ?? 256;
  const delayMs = options.delayMs ?? 500;
  let waiting: SpanData[] = [];
  let inFlight: Promise<void> | undefined;
  let inFlightCount = 0;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let dropped = 0;
  let lastReason: string | undefined;
  let failed = false;

  const fail = (count: number, reason: string) => {
    if (closed) return;
    dropped += count;
    lastReason = reason;
    if (!failed) options.onFirstFailure(reason);
    failed = true;
  };

  const pump = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (inFlight || waiting.length === 0) return;
    const spans = waiting.splice(0, batch);
    inFlightCount = spans.length;
    inFlight = send(spans)
      .then(
        (result) => {
          if (!result.ok) fail(spans.length, result.reason);
        },
        (error: Error) => fail(spans.length, error.message),
      )
      .finally(() => {
        inFlight = undefined;
        inFlightCount = 0;
        if (waiting.length >= batch) pump();
        else if (waiting.length > 0) schedule();
      });
  };

  const schedule = () => {
    timer ??= setTimeout(pump, delayMs);
    timer.unref();
  };

  return {
    push(span: SpanData) {
      if (waiting.length >= max) {
        fail(1, lastReason ?? 'the collector is behind and the queue is full');
        return;
      }
      waiting.push(span);
      if (waiting.length >= batch) pump();
      else schedule();
    },
    /** Sends what waits, for at most `timeoutMs`; what is still waiting then is dropped and counted. */
    async close(timeoutMs: number): Promise<{ dropped: number; reason?: string }> {
      const deadline = Date.now() + timeoutMs;
      while ((waiting.length > 0 || inFlight) && Date.now() < deadline) {
        pump();
        const left = deadline - Date.now();
        await Promise.race([inFlight, new Promise((resolve) => setTimeout(resolve, Math.max(0, left)).unref())]);
      }
      clearTimeout(timer);
      // Spans still waiting, or sent without an answer yet, are counted as dropped: the spy does not wait longer.
      if (waiting.length > 0 || inFlight)
        fail(waiting.length + (inFlight ? inFlightCount : 0), lastReason ?? options.pendingReason?.() ?? `the collector did not answer within ${timeoutMs} ms`);
      closed = true;
      waiting = [];
      return lastReason === undefined ? { dropped } : { dropped, reason: lastReason };
    },
  };
}
