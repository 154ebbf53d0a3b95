import type { FrameBytes } from './observe.js';

/** Gathers a body for observation, keeping at most `max` bytes and counting the rest. */
export function createBodyCollector(max: number) {
  const chunks: Buffer[] = [];
  let kept = 0;
  let size = 0;
  return {
    push(chunk: Buffer) {
      size += chunk.length;
      if (kept >= max) return;
      const part = kept + chunk.length > max ? chunk.subarray(0, max - kept) : chunk;
      chunks.push(part);
      kept += part.length;
    },
    get size() {
      return size;
    },
    /** The body as one frame, or undefined when it was empty. */
    take(): FrameBytes | undefined {
      if (size === 0) return undefined;
      const frame: FrameBytes = { bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), size };
      if (size > kept) frame.truncated = true;
      return frame;
    },
  };
}

export type BodyCollector = ReturnType<typeof createBodyCollector>;
