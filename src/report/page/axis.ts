/**
 * A step for about `count` ticks over `total`: 1, 2 or 5 times a power of ten (500 ms, 1 s, 2 s), so
 * the labels are numbers a person reads at a glance, not 497 ms and 994 ms.
 */
export function roundStep(total: number, count = 5): number {
  const raw = Math.max(total, 1e-9) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const factor = [1, 2, 5, 10].find((candidate) => candidate * power >= raw) ?? 10;
  return factor * power;
}

/** A tick's label: whole ms below a second, else seconds with only the digits the step needs. */
export function tickLabel(ms: number): string {
  if (ms < 1000) return `${Number(ms.toPrecision(12))} ms`;
  return `${Number((ms / 1000).toPrecision(12))} s`;
}
