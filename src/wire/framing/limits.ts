const MiB = 1024 * 1024;

/** The spy's default parse limit (`--max-frame`): a longer frame is forwarded whole and recorded in part. */
export const defaultMaxFrame = 16 * MiB;

/**
 * The longest line a reader turns into text unless told otherwise: a frame at the spy's default
 * parse limit, with room for its JSON escaping and annotations. A longer line is never held whole.
 */
export const defaultMaxLine = 2 * defaultMaxFrame;

/**
 * Bounds of a parse limit. Below 1 KiB even an initialize request would be cut (`--max-frame 16`
 * is more likely a forgotten unit). A JavaScript string holds just under 512 MiB: the frame's text
 * and its record line, where JSON escaping may double it, must each fit in one.
 */
export const frameLimitBounds = { min: 1024, max: 256 * MiB } as const;

/** Bounds of a reader's line limit: a line it reads becomes one string, just under 512 MiB at most. */
export const lineLimitBounds = { min: 1024, max: 511 * MiB } as const;

/** A size as people write it, as the size options take it: 16MiB, 1.5KiB, 600B. */
export function formatSize(bytes: number): string {
  const [unit, factor] = bytes >= MiB ? ['MiB', MiB] : bytes >= 1024 ? ['KiB', 1024] : ['B', 1];
  return `${Math.round((bytes / factor) * 10) / 10}${unit}`;
}
