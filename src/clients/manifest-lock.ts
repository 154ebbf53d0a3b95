import { closeSync, constants, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { dirname } from 'node:path';
import { makeDirectory } from '../record/paths.js';
import { alive } from '../record/sessions-dir.js';

/** The lock beside the manifest: while one wrap or unwrap reads, edits and writes it, no other does. */
export function lockPath(manifest: string): string {
  return `${manifest}.lock`;
}

/** Makes the lock (holding this pid); the pid of its holder when another process has it. */
function tryLock(lock: string): number | undefined {
  try {
    const fd = openSync(lock, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  let holder = Number.NaN;
  try {
    holder = Number.parseInt(readFileSync(lock, 'utf8'), 10);
  } catch {
    // Removed by its holder just now: free.
  }
  // A lock whose holder was killed (or that is not one of ours) is left over: taken over.
  if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) return holder;
  try {
    unlinkSync(lock);
  } catch {
    // Someone else took it over first; the next try tells.
  }
  return tryLock(lock);
}

/**
 * Runs `work` holding the manifest's lock. Two wraps run at once would each read the manifest, and
 * the later writer would drop the entries the other recorded: unwrap could then not restore them.
 * A holder that is still at work is waited for up to `waitMs`; then the reason, naming its pid.
 */
export async function withManifestLock<T>(
  manifest: string,
  work: () => Promise<T>,
  waitMs = 5000,
): Promise<{ ok: true; value: T } | { ok: false; why: string }> {
  const lock = lockPath(manifest);
  makeDirectory(dirname(lock));
  const until = Date.now() + waitMs;
  let holder = tryLock(lock);
  while (holder !== undefined && Date.now() < until) {
    await sleep(50);
    holder = tryLock(lock);
  }
  if (holder !== undefined)
    return {
      ok: false,
      why: `another mcp-spy wrap or unwrap (pid ${holder}) is changing the record of wrapped entries; run this again once it is done (or remove ${lock} if no such process runs)`,
    };
  try {
    return { ok: true, value: await work() };
  } finally {
    try {
      unlinkSync(lock);
    } catch {
      // Removed by hand meanwhile: nothing to release.
    }
  }
}
