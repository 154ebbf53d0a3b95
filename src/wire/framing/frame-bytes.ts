/**
 * One frame as a framer hands it on: its bytes (at most the parse limit), how its line ended, and
 * its whole size when only the start was kept. What every later stage starts from.
 */
export interface FrameBytes {
  bytes: Buffer;
  eol?: string;
  size?: number;
  truncated?: boolean;
}
