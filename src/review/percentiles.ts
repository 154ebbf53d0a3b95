/** Latency figures of a list of durations: nearest-rank percentiles and the maximum. */
export interface LatencySummary {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function summarizeLatency(values: number[]): LatencySummary | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
  return { p50: rank(50), p95: rank(95), p99: rank(99), max: sorted[sorted.length - 1]! };
}
