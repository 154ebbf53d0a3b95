import { closeSync, constants, fchmodSync, fstatSync, ftruncateSync, openSync, writeFileSync } from 'node:fs';
import { openFailureReason } from '../record/open-output.js';
import { SpyError } from './errors.js';
import { plantedLinkReason } from './write-output.js';

const cannot = (path: string, why: string) => new SpyError(`cannot write the report ${path}: ${why}`);

/**
 * Writes the report as the record is written: created with mode 0600, an existing file of ours
 * tightened to it. A path the user named (-o) may be a link or a device (`-o /dev/stdout`); the
 * default one beside the recording is not followed through a link and must be a regular file of
 * ours, so a link planted in a shared directory cannot redirect it.
 */
export function writeReportFile(path: string, html: string, options: { named: boolean }): void {
  const planted = options.named ? plantedLinkReason(path) : undefined;
  if (planted) throw cannot(path, planted);
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | (options.named ? 0 : constants.O_NOFOLLOW), 0o600);
  } catch (error) {
    throw cannot(path, openFailureReason(error as NodeJS.ErrnoException));
  }
  try {
    const stat = fstatSync(fd);
    const ours = process.getuid === undefined || stat.uid === process.getuid();
    if (!options.named && !stat.isFile()) throw cannot(path, 'it is not a regular file');
    if (!options.named && !ours) throw cannot(path, `it belongs to another user (uid ${stat.uid})`);
    if (stat.isFile()) {
      if (ours && (stat.mode & 0o077) !== 0) fchmodSync(fd, 0o600);
      ftruncateSync(fd, 0);
    }
    writeFileSync(fd, html);
  } catch (error) {
    throw error instanceof SpyError ? error : cannot(path, openFailureReason(error as NodeJS.ErrnoException));
  } finally {
    closeSync(fd);
  }
}
