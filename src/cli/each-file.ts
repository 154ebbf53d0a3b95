import { describeFailure, exitCodes, failureStatus } from './errors.js';

/**
 * Runs `work` on each file given, as `cat` does: a file that cannot be read is its one line on
 * stderr and the others are still read; the status is the worst of them (bad use over findings).
 */
export async function forEachFile<T>(files: string[], work: (file: string) => Promise<T>): Promise<{ done: { file: string; value: T }[]; exitCode: number }> {
  const done: { file: string; value: T }[] = [];
  let exitCode: number = exitCodes.ok;
  for (const file of files) {
    try {
      done.push({ file, value: await work(file) });
    } catch (error) {
      // One file is the command's whole work: its failure is the command's, as before.
      if (files.length === 1 || failureStatus(error) === undefined) throw error;
      const failure = describeFailure(error, false);
      process.stderr.write(`${failure.line}\n`);
      exitCode = Math.max(exitCode, failure.exitCode);
    }
  }
  return { done, exitCode };
}
