/** Milliseconds since the epoch of a record time, or undefined (a capture has no times). */
export function msOf(t: string | undefined): number | undefined {
  if (t === undefined) return undefined;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
}

/** A duration for people: 850 ms, 12.3 s, 4 min 5 s. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms * 10) / 10} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A size for people: 512 B, 3.4 KiB, 12.0 MiB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** The clock part of a record time (14:05:30.250), as `view` prints it. */
export function clockOf(t: string | undefined): string {
  return t?.slice(11, 23) ?? '??:??:??.???';
}
