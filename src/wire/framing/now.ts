/** Now, in ms since the epoch, finer than a millisecond: when the spy saw something. */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}
