import { realpathSync } from 'node:fs';
import { delimiter, dirname, join, relative, isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bin of this mcp-spy, as installed. */
export const binPath = fileURLToPath(new URL('../../bin/mcp-spy.js', import.meta.url));
const packageRoot = dirname(dirname(binPath));

const realpath = (path: string): string | undefined => {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
};

/** A word for a shell: quoted when it holds anything but plain path characters. */
export const shellWord = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`);

/**
 * How the user can run this very mcp-spy from `cwd`: `mcp-spy` when it is on the PATH (npm link,
 * a global install), `npx mcp-spy` inside its clone, else node and the absolute path of the bin.
 */
export function commandToRun(cwd = process.cwd(), path = process.env.PATH ?? ''): string {
  const self = realpath(binPath);
  // npm and npx put node_modules/.bin folders on the PATH of what they run, not on the user's own.
  const shellPath = path.split(delimiter).filter((dir) => dir !== '' && !/node_modules[\\/]\.bin$/.test(dir));
  const onPath = shellPath.some((dir) => realpath(join(dir, 'mcp-spy')) === self);
  if (onPath) return 'mcp-spy';
  const inside = relative(packageRoot, cwd);
  if (!inside.startsWith('..') && !isAbsolute(inside)) return 'npx mcp-spy';
  return `node ${shellWord(binPath)}`;
}
