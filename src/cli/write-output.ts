import { statSync, writeFileSync } from 'node:fs';
import { openFailureReason } from '../record/open-output.js';
import { SpyError } from './errors.js';

/** Whether two paths name one file: a symbolic or hard link to it, or a path spelled another way; false when either is missing. */
export function sameFile(a: string, b: string): boolean {
  const [one, two] = [statSync(a, { throwIfNoEntry: false }), statSync(b, { throwIfNoEntry: false })];
  return one !== undefined && two !== undefined && one.dev === two.dev && one.ino === two.ino;
}

/**
 * Writes a command's whole output to `-o FILE` (a new file with mode 0600), or to stdout when none (or `-`) is given. An output
 * that is the file being read (by its name or through a link) is refused: writing it would destroy it.
 */
export function writeOutput(path: string | undefined, text: string, input?: string): void {
  if (path === undefined || path === '-') {
    process.stdout.write(text);
    return;
  }
  if (input !== undefined && input !== '-' && sameFile(input, path)) {
    throw new SpyError(`-o ${path} is the file being read; writing it would destroy it: choose another file`);
  }
  try {
    // Created private, as the record is: a HAR or an imported record holds the traffic, secrets and all.
    writeFileSync(path, text, { mode: 0o600 });
  } catch (error) {
    throw new SpyError(`cannot write ${path}: ${openFailureReason(error as NodeJS.ErrnoException)}`);
  }
}
