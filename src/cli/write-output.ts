import { writeFileSync } from 'node:fs';
import { SpyError } from './errors.js';

/** Writes a command's whole output to `-o FILE`, or to stdout when none (or `-`) is given. */
export function writeOutput(path: string | undefined, text: string): void {
  if (path === undefined || path === '-') {
    process.stdout.write(text);
    return;
  }
  try {
    writeFileSync(path, text);
  } catch (error) {
    throw new SpyError(`cannot write ${path}: ${(error as Error).message}`);
  }
}
