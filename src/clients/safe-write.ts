import { randomBytes } from 'node:crypto';
import {
  accessSync,
  chownSync,
  closeSync,
  constants,
  fchmodSync,
  fsyncSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { makeDirectory } from '../record/paths.js';

/** A config as read: the file written to (a symlink's target), its bytes and its mode and owner. */
export interface ReadConfig {
  /** The path as named. */
  path: string;
  /** The file itself, symlinks followed: what is replaced, and what the backup sits beside. */
  real: string;
  bytes: Buffer;
  stat: Stats;
}

export type Outcome<T = object> = ({ ok: true } & T) | { ok: false; why: string };

const code = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

const readFailures: Record<string, string> = {
  ENOENT: 'no such file (or a symbolic link to none)',
  EACCES: 'permission denied',
  EISDIR: 'it is a directory',
  ELOOP: 'a loop of symbolic links',
  ENOTDIR: 'a part of its path is not a directory',
};

/** Reads a config, following a symlink to the file it names. */
export function readConfigFile(path: string): Outcome<{ read: ReadConfig }> {
  try {
    const real = realpathSync(path);
    const stat = statSync(real);
    if (!stat.isFile()) return { ok: false, why: 'not a regular file' };
    return { ok: true, read: { path, real, bytes: readFileSync(real), stat } };
  } catch (error) {
    return { ok: false, why: readFailures[code(error)] ?? code(error) };
  }
}

/** Whether the file may be replaced: it is the user's own, and its mode allows writing (root could write anyway; the mode says the owner does not want it). */
function checkWritable(read: ReadConfig): string | undefined {
  // Root may write anyone's file, and anyone a file open to the group: the owner would not be kept
  // (nor could another user remove the backup), and the file is not the user's to change.
  const uid = process.getuid?.();
  if (uid !== undefined && read.stat.uid !== uid) return `it belongs to another user (uid ${read.stat.uid}): mcp-spy changes only your own files`;
  if ((read.stat.mode & 0o222) === 0) return `it is read-only (mode ${(read.stat.mode & 0o777).toString(8).padStart(4, '0')})`;
  try {
    accessSync(read.real, constants.W_OK);
    accessSync(dirname(read.real), constants.W_OK);
  } catch {
    return 'permission denied';
  }
  return undefined;
}

/** Writes bytes to a new file beside the target, with the mode (and owner) given, synced; its path. */
function writeTemp(target: string, bytes: Buffer | string, mode: number, owner?: { uid: number; gid: number }): string {
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}-${randomBytes(3).toString('hex')}.tmp`);
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  try {
    // The umask narrows the mode open gives (0666 became 0644): the file's own mode is set as it was.
    fchmodSync(fd, mode);
    const data = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    for (let done = 0; done < data.length; ) done += writeSync(fd, data, done);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    if (owner && (process.getuid?.() === 0 || owner.uid === process.getuid?.())) chownSync(temp, owner.uid, owner.gid);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
  return temp;
}

export interface ReplaceOptions {
  /** Where to keep the bytes read before this change, when there is no backup yet to keep. */
  backup?: string;
  /** Called just before the file is checked for changes by others and replaced: tests change it here. */
  beforeReplace?: () => void;
}

/**
 * Replaces a config with new text, atomically (a temp file beside it, renamed over it), its mode and
 * owner kept, a symlink kept pointing at it. Refused, the file untouched, when it is read-only or has
 * changed since it was read (the client, or the user, wrote it meanwhile).
 */
export function replaceConfigFile(read: ReadConfig, text: string, options: ReplaceOptions = {}): Outcome<{ backedUp?: string }> {
  const unwritable = checkWritable(read);
  if (unwritable) return { ok: false, why: unwritable };
  let temp: string | undefined;
  try {
    temp = writeTemp(read.real, text, read.stat.mode & 0o7777, { uid: read.stat.uid, gid: read.stat.gid });
    options.beforeReplace?.();
    if (!readFileSync(read.real).equals(read.bytes)) {
      unlinkSync(temp);
      return { ok: false, why: 'it changed while mcp-spy was editing it (the client may have written it): nothing written, run the command again' };
    }
    let backedUp: string | undefined;
    if (options.backup !== undefined) {
      // Renamed into place, not copied: a link planted at the backup's name (a cloned project can
      // hold .mcp.json.mcp-spy-backup -> ~/.bashrc) is replaced, never written through.
      renameSync(writeTemp(options.backup, read.bytes, read.stat.mode & 0o7777, { uid: read.stat.uid, gid: read.stat.gid }), options.backup);
      backedUp = options.backup;
    }
    renameSync(temp, read.real);
    return backedUp === undefined ? { ok: true } : { ok: true, backedUp };
  } catch (error) {
    if (temp !== undefined) {
      try {
        unlinkSync(temp);
      } catch {
        // Already gone, or renamed: nothing left to clean.
      }
    }
    return { ok: false, why: `cannot write it: ${code(error)}` };
  }
}

/** Writes a file of our own (0600, its directory made 0700), atomically. */
export function writePrivateFile(path: string, text: string): Outcome {
  try {
    makeDirectory(dirname(path));
    renameSync(writeTemp(path, text, 0o600), path);
    return { ok: true };
  } catch (error) {
    return { ok: false, why: `cannot write ${path}: ${code(error)}` };
  }
}
