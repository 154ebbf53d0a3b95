import type { FrameBytes } from './frame-bytes.js';

/**
 * Gathers a body for observation, keeping at most `max` bytes and counting the rest. A class: one
 * is made for each body of each exchange, most of which come in one chunk (kept as it is).
 */
export class BodyCollector {
  private first: Buffer | undefined;
  private rest: Buffer[] | undefined;
  private kept = 0;
  private seen = 0;

  constructor(private readonly max: number) {}

  push(chunk: Buffer) {
    this.seen += chunk.length;
    if (this.kept >= this.max) return;
    const part = this.kept + chunk.length > this.max ? chunk.subarray(0, this.max - this.kept) : chunk;
    if (this.first === undefined) this.first = part;
    else (this.rest ??= [this.first]).push(part);
    this.kept += part.length;
  }

  get size() {
    return this.seen;
  }

  /** The body as one frame, or undefined when it was empty. */
  take(): FrameBytes | undefined {
    if (this.seen === 0) return undefined;
    const frame: FrameBytes = { bytes: this.rest ? Buffer.concat(this.rest) : (this.first ?? Buffer.alloc(0)), size: this.seen };
    if (this.seen > this.kept) frame.truncated = true;
    return frame;
  }
}
