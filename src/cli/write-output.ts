import { statSync, writeFileSync } from 'node:fs';
import { openFailureReason } from '../record/open-output.js';
import { SpyError } from './errors.js';

/** Whether two paths name one file: a symbolic or hard link to it, or a path spelled another way; false when either is missing. */
export function sameFile(a: string, b: string): boolean {
  const [one, two] = [statSync(a, { throwIfNoEntry: false }), statSync(b, { throwIfNoEntry: false })];
  return one !== undefined && two !== undefined && one.dev === two.dev && one.ino === two.ino;
}

/**
 * Writes a command's whole output to `-o FILE`, or to stdout when none (or `-`) is given. An output
 * that is the file being read (by its name or through a link) is refused: writing it would destroy it.
 * A new file is private (0600), as the record is, unless `mode` says otherwise (a baseline, made for review).
 */
export function writeOutput(path: string | undefined, text: string, input?: string, mode = 0o600): void {
  if (path === undefined || path === '-') {
    process.stdout.write(text);
    return;
  }
  if (input !== undefined && input !== '-' && sameFile(input, path)) {
    throw new SpyError(`-o ${path} is the file being read; writing it would destroy it: choose another file`);
  }
  try {
    // Private by default: a HAR, an imported record or a diff of answers holds the traffic, secrets and all.
    writeFileSync(path, text, { mode });
  } catch (error) {
    throw new SpyError(`cannot write ${path}: ${openFailureReason(error as NodeJS.ErrnoException)}`);
  }
}
