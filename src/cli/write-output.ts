import { realpathSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openFailureReason } from '../record/open-output.js';
import { SpyError } from './errors.js';

/** The file a path names, through any links; the path itself when there is none yet. */
function fileOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * Writes a command's whole output to `-o FILE`, or to stdout when none (or `-`) is given. An output
 * that is the file being read (by its name or through a link) is refused: writing it would destroy it.
 */
export function writeOutput(path: string | undefined, text: string, input?: string): void {
  if (path === undefined || path === '-') {
    process.stdout.write(text);
    return;
  }
  if (input !== undefined && input !== '-' && fileOf(input) === fileOf(path)) {
    throw new SpyError(`-o ${path} is the file being read; writing it would destroy it: choose another file`);
  }
  try {
    writeFileSync(path, text);
  } catch (error) {
    throw new SpyError(`cannot write ${path}: ${openFailureReason(error as NodeJS.ErrnoException)}`);
  }
}
