import { closeSync, constants, fchmodSync, fstatSync, openSync } from 'node:fs';

export interface OutputFileOptions {
  /**
   * A path the user named may be a symlink, a FIFO or a device (`--record /dev/stderr`). A default
   * path is opened without following a symlink and must be a regular file of the user's own: in a
   * shared directory, a link planted by someone else must not redirect the spy's writes.
   */
  named: boolean;
}

export type OutputFile = { ok: true; fd: number; warning?: string } | { ok: false; error: NodeJS.ErrnoException; why: string };

// Non-blocking: opening a FIFO nobody reads fails at once (ENXIO) instead of hanging the session,
// and a write it cannot take at once comes back to be retried, never holding a thread.
const baseFlags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK;

/** Why an open failed, in words a user can act on. */
const openFailures = new Map<string, string>([
  ['ELOOP', 'it is a symbolic link (the default files are never followed through links)'],
  ['ENXIO', 'it is a FIFO that no process is reading'],
  ['EACCES', 'permission denied'],
  ['EISDIR', 'it is a directory'],
  ['ENOENT', 'its directory does not exist'],
  ['EROFS', 'the file system is read-only'],
]);

/** Why a file cannot be written, in words a user can act on. */
export function whyCannotOpen(error: NodeJS.ErrnoException): string {
  return openFailures.get(error.code ?? '') ?? error.message;
}

function failure(error: NodeJS.ErrnoException): OutputFile {
  return { ok: false, error, why: whyCannotOpen(error) };
}

function refuse(fd: number, code: string, why: string): OutputFile {
  closeSync(fd);
  const error: NodeJS.ErrnoException = new Error(why);
  error.code = code;
  return { ok: false, error, why };
}

function tighten(fd: number, path: string): { warning?: string } {
  try {
    fchmodSync(fd, 0o600);
    return {};
  } catch (error) {
    return { warning: `cannot make ${path} private (mode 0600): ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
}

/**
 * Opens a record or log for appending, created with mode 0600. An existing regular file of ours
 * that others may read is tightened to 0600; one of another user is left as it is, with a warning.
 */
export function openOutputFile(path: string, options: OutputFileOptions): OutputFile {
  let fd: number;
  try {
    fd = openSync(path, baseFlags | (options.named ? 0 : constants.O_NOFOLLOW), 0o600);
  } catch (error) {
    return failure(error as NodeJS.ErrnoException);
  }
  try {
    const stat = fstatSync(fd);
    const uid = process.getuid?.();
    const ours = uid === undefined || stat.uid === uid;
    if (!options.named && !stat.isFile()) return refuse(fd, 'ENOTREG', 'it is not a regular file');
    if (!options.named && !ours) return refuse(fd, 'ENOTOWNER', `it belongs to another user (uid ${stat.uid})`);
    if (!stat.isFile() || (stat.mode & 0o077) === 0) return { ok: true, fd };
    if (!ours) return { ok: true, fd, warning: `${path} belongs to another user (uid ${stat.uid}); its mode ${(stat.mode & 0o777).toString(8)} was left as it is` };
    return { ok: true, fd, ...tighten(fd, path) };
  } catch (error) {
    closeSync(fd);
    return failure(error as NodeJS.ErrnoException);
  }
}
