import { readRecording, type RecordingEntry, type RecordingOptions, type SkippedLine } from '../record/open-recording.js';
import { maxDepth } from '../protocol/depth.js';

const shownSkips = 10;

/**
 * Says each line a reader skipped on stderr with its number (the first ten, then a count at
 * `finish`): one voice for view, stats, check, replay and mock.
 */
export function createSkipReporter(path: string) {
  let skipped = 0;
  return {
    onSkip({ lineNo, reason }: SkippedLine) {
      skipped++;
      if (skipped <= shownSkips) process.stderr.write(`mcp-spy: ${path}:${lineNo}: ${reason}; skipped\n`);
    },
    finish(more = ' (--strict makes this an error)') {
      if (skipped > shownSkips) process.stderr.write(`mcp-spy: ${path}: ${skipped} lines skipped in all${more}\n`);
    },
  };
}

/**
 * Says once that a recording holds frames read cut at the depth limit: replay, mock and diff
 * compare and send them as read, and a difference deeper down would go unseen otherwise.
 */
export function createCutReporter(path: string): (lineNo: number) => void {
  let said = false;
  return (lineNo) => {
    if (said) return;
    said = true;
    process.stderr.write(
      `mcp-spy: ${path}:${lineNo}: frames nested deeper than ${maxDepth} levels (this one first) are read cut at that depth: what lies deeper is neither compared nor sent\n`,
    );
  };
}

/**
 * The entries of a recording for a command: lines it cannot read are said on stderr with their
 * number and skipped (and counted in `tally`); a file it cannot read at all is one clear line.
 */
export async function* recordingEntries(
  path: string,
  options: Omit<RecordingOptions, 'onSkip'> = {},
  tally?: { skipped: number },
): AsyncGenerator<RecordingEntry> {
  const reporter = createSkipReporter(path);
  const onSkip = (line: SkippedLine) => {
    if (tally) tally.skipped++;
    reporter.onSkip(line);
  };
  try {
    yield* readRecording(path, { ...options, onSkip });
  } finally {
    reporter.finish();
  }
}

/** Aborts on SIGINT or SIGTERM, for commands that run until the user stops them (--follow). */
export function abortOnSignals(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const abort = () => controller.abort();
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', abort);
      process.off('SIGTERM', abort);
    },
  };
}
