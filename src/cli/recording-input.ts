import { readRecording, type RecordingEntry, type RecordingOptions } from '../record/open-recording.js';
import { RecordReadError } from '../record/reader.js';
import { SpyError } from './errors.js';

const shownSkips = 10;

/**
 * The entries of a recording for a command: lines it cannot read are said on stderr with their
 * number (the first ten, then a count) and skipped; a file it cannot read at all is one clear line.
 */
export async function* recordingEntries(path: string, options: Omit<RecordingOptions, 'onSkip'> = {}): AsyncGenerator<RecordingEntry> {
  let skipped = 0;
  const onSkip = ({ lineNo, reason }: { lineNo: number; reason: string }) => {
    skipped++;
    if (skipped <= shownSkips) process.stderr.write(`mcp-spy: ${path}:${lineNo}: ${reason}; skipped\n`);
  };
  try {
    yield* readRecording(path, { ...options, onSkip });
  } catch (error) {
    if (error instanceof RecordReadError) throw new SpyError(error.message);
    throw error;
  } finally {
    if (skipped > shownSkips) process.stderr.write(`mcp-spy: ${path}: ${skipped} lines skipped in all (--strict makes this an error)\n`);
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
