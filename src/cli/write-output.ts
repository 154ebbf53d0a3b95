import { once } from 'node:events';
import { closeSync, openSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { openFailureReason } from '../record/open-output.js';
import { namedPathKind } from '../record/shared-paths.js';
import { SpyError } from './errors.js';

/** Whether two paths name one file: a symbolic or hard link to it, or a path spelled another way; false when either is missing. */
export function sameFile(a: string, b: string): boolean {
  const [one, two] = [statSync(a, { throwIfNoEntry: false }), statSync(b, { throwIfNoEntry: false })];
  return one !== undefined && two !== undefined && one.dev === two.dev && one.ino === two.ino;
}

/**
 * Why an output path is not to be followed, when it is a link another user planted in a shared
 * directory (sticky and writable by all, as /tmp): the rule `--record` keeps, fs.protected_symlinks'.
 */
export function plantedLinkReason(path: string): string | undefined {
  const kind = namedPathKind(resolve(path), process.getuid?.());
  return kind.link ? kind.refused : undefined;
}

/** Refuses an output that is one of the files being read (by its name or through a link): writing it would destroy it; or a planted link. */
export function refuseOverwrite(path: string | undefined, inputs: readonly string[]): void {
  if (path === undefined || path === '-') return;
  const planted = plantedLinkReason(path);
  if (planted) throw new SpyError(`cannot write ${path}: ${planted}`);
  if (inputs.some((input) => input !== '-' && sameFile(input, path))) {
    throw new SpyError(`-o ${path} is the file being read; writing it would destroy it: choose another file`);
  }
}

/**
 * Writes a command's whole output to `-o FILE`, or to stdout when none (or `-`) is given, never over
 * one of its `inputs`. A new file is private (0600), as the record is, unless `mode` says otherwise
 * (a baseline, made for review).
 */
export function writeOutput(path: string | undefined, text: string, options: { inputs?: readonly string[]; mode?: number } = {}): void {
  if (path === undefined || path === '-') {
    process.stdout.write(text);
    return;
  }
  refuseOverwrite(path, options.inputs ?? []);
  try {
    // Private by default: a HAR, an imported record or a diff of answers holds the traffic, secrets and all.
    writeFileSync(path, text, { mode: options.mode ?? 0o600 });
  } catch (error) {
    throw new SpyError(`cannot write ${path}: ${openFailureReason(error as NodeJS.ErrnoException)}`);
  }
}

/** An output written piece by piece, so that what it holds need never be in memory at once. */
export interface OutputStream {
  write(text: string): Promise<void>;
  end(): Promise<void>;
}

/** How much is gathered before a write: fewer calls, little memory. */
const batchChars = 1 << 20;

/** Opens `-o FILE` (or stdout) as `writeOutput` writes it, for output made piece by piece. */
export function openOutputStream(path: string | undefined, options: { inputs?: readonly string[] } = {}): OutputStream {
  let pending = '';
  let put: (text: string) => Promise<void>;
  let close = () => {};
  if (path === undefined || path === '-') {
    put = async (text) => {
      if (!process.stdout.write(text)) await once(process.stdout, 'drain');
    };
  } else {
    refuseOverwrite(path, options.inputs ?? []);
    const fail = (error: unknown) => new SpyError(`cannot write ${path}: ${openFailureReason(error as NodeJS.ErrnoException)}`);
    let fd: number;
    try {
      fd = openSync(path, 'w', 0o600);
    } catch (error) {
      throw fail(error);
    }
    put = async (text) => {
      try {
        writeSync(fd, text);
      } catch (error) {
        throw fail(error);
      }
    };
    close = () => closeSync(fd);
  }
  return {
    async write(text) {
      pending += text;
      if (pending.length >= batchChars) {
        const batch = pending;
        pending = '';
        await put(batch);
      }
    },
    async end() {
      try {
        if (pending !== '') await put(pending);
      } finally {
        close();
      }
    },
  };
}
