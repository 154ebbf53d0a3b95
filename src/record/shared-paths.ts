import { lstatSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';

/** A directory anyone may add to, each keeping what they add (`/tmp`): where others plant links. */
function isSharedDirectory(dir: Stats): boolean {
  return (dir.mode & 0o1000) !== 0 && (dir.mode & 0o002) !== 0;
}

export type NamedPathKind = { link: false } | { link: true; refused?: string };

/**
 * What stands at a named path: a link is followed unless another user planted it in a shared
 * directory, the rule of the kernel's fs.protected_symlinks (a link there is followed only when it
 * is the follower's or the directory owner's), kept on machines that do not enforce it.
 */
export function namedPathKind(path: string, uid: number | undefined): NamedPathKind {
  let link: Stats;
  try {
    link = lstatSync(path);
  } catch {
    return { link: false };
  }
  if (!link.isSymbolicLink()) return { link: false };
  if (uid === undefined || link.uid === uid) return { link: true };
  try {
    const dir = statSync(dirname(path));
    if (!isSharedDirectory(dir) || link.uid === dir.uid) return { link: true };
  } catch {
    return { link: true };
  }
  return {
    link: true,
    refused: `it is a link of another user (uid ${link.uid}) in a shared directory (sticky and writable by all), which the spy does not follow`,
  };
}

/** The option that lets the traffic go into a file others can read. */
export const allowReadableOption = '--allow-readable';

/** Who else can read a regular file the user named, when someone can: its owner, or all by its mode. */
export function otherReaders(stat: Stats, uid: number | undefined): string | undefined {
  if (uid !== undefined && stat.uid !== uid) return `it belongs to another user (uid ${stat.uid}), who can read what is written to it`;
  if ((stat.mode & 0o044) !== 0) return `others can read it (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}) and its mode cannot be made 0600`;
  return undefined;
}
