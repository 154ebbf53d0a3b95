import { closeSync, constants, fchmodSync, fstatSync, openSync } from 'node:fs';
import { allowReadableOption, namedPathKind, otherReaders } from './shared-paths.js';

export interface OutputFileOptions {
  /**
   * A path the user named may be a symlink, a FIFO or a device (`--record /dev/stderr`). A default
   * path is opened without following a symlink and must be a regular file of the user's own: in a
   * shared directory, a link planted by someone else must not redirect the spy's writes.
   */
  named: boolean;
  /** --allow-readable: a named file others can read (another user's) takes the traffic all the same. */
  allowReadable?: boolean;
}

export type OutputFile = { ok: true; fd: number } | { ok: false; error: NodeJS.ErrnoException; why: string };

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
  ['ENOSPC', 'no space left on the device'],
]);

/** Why opening an output file failed, in words a user can act on (the system's message otherwise). */
export function openFailureReason(error: NodeJS.ErrnoException): string {
  return openFailures.get(error.code ?? '') ?? error.message;
}

function failure(error: NodeJS.ErrnoException, why = openFailureReason(error)): OutputFile {
  return { ok: false, error, why };
}

function refuse(fd: number, code: string, why: string): OutputFile {
  closeSync(fd);
  const error: NodeJS.ErrnoException = new Error(why);
  error.code = code;
  return { ok: false, error, why };
}

function tighten(fd: number): boolean {
  try {
    fchmodSync(fd, 0o600);
    return true;
  } catch {
    return false;
  }
}

/**
 * Opens a record or log for appending, created with mode 0600. An existing regular file of ours
 * that others may read is tightened to 0600. A named file someone else can read (another user's,
 * or one whose mode cannot be tightened) is refused unless --allow-readable says to write it all
 * the same; the mode of a file of another user is never changed.
 */
export function openOutputFile(path: string, options: OutputFileOptions): OutputFile {
  const uid = process.getuid?.();
  // A named path is followed only when it was a link when looked at, and not one planted by another user.
  const kind = options.named ? namedPathKind(path, uid) : { link: false as const };
  if (kind.link && kind.refused) return failure(Object.assign(new Error(kind.refused), { code: 'EPLANTED' }), kind.refused);
  let fd: number;
  try {
    fd = openSync(path, baseFlags | (kind.link ? 0 : constants.O_NOFOLLOW), 0o600);
  } catch (error) {
    return failure(error as NodeJS.ErrnoException);
  }
  try {
    const stat = fstatSync(fd);
    const ours = uid === undefined || stat.uid === uid;
    if (!options.named && !stat.isFile()) return refuse(fd, 'ENOTREG', 'it is not a regular file');
    if (!options.named && !ours) return refuse(fd, 'ENOTOWNER', `it belongs to another user (uid ${stat.uid})`);
    if (!stat.isFile()) return { ok: true, fd };
    if (ours && (stat.mode & 0o077) !== 0 && tighten(fd)) return { ok: true, fd };
    const readers = ours && (stat.mode & 0o044) === 0 ? undefined : otherReaders(stat, uid);
    if (readers === undefined || options.allowReadable) return { ok: true, fd };
    return refuse(fd, 'EREADABLE', `${readers}; ${allowReadableOption} writes to it all the same`);
  } catch (error) {
    closeSync(fd);
    return failure(error as NodeJS.ErrnoException);
  }
}
