import { closeSync, lstatSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { openFailureReason, openOutputFile } from './open-output.js';
import { allowReadableOption, namedPathKind, otherReaders } from './shared-paths.js';

export interface OutputChoice {
  /** false: do not write this file; a string: the path the user named; undefined: the default. */
  record?: string | false;
  log?: string | false;
}

export interface OutputPaths {
  record?: string;
  log?: string;
  /** Whether the user named each path (it may then be a link, a FIFO or a device). */
  recordNamed: boolean;
  logNamed: boolean;
  /** Set when the default files went somewhere other than the working directory, and why. */
  movedTo?: { dir: string; reason: string };
  /** Set when the default files can go nowhere, with why: the session runs unrecorded. */
  unavailable?: string;
}

export const defaultNames = { record: 'wire.jsonl', log: 'wire.log' } as const;

/** mcp-spy's own per-user state directory, `$XDG_STATE_HOME/mcp-spy` (or `~/.local/state/mcp-spy`), whatever MCP_SPY_DIR says. */
export function userStateDirectory(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'mcp-spy');
}

/** The per-user state directory used when the working directory cannot take the files. */
export function stateDirectory(env: NodeJS.ProcessEnv): string {
  return env.MCP_SPY_DIR ? resolve(env.MCP_SPY_DIR) : userStateDirectory(env);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Why a directory takes no new file, by the error creating one gave. */
const directoryFailures = new Map<string, string>([
  ['EACCES', 'is not writable'],
  ['EPERM', 'is not writable'],
  ['EROFS', 'is on a read-only file system'],
  ['ENOENT', 'does not exist'],
  ['ENOTDIR', 'is not a directory'],
]);

/**
 * Why a default file cannot be opened there: what is wrong with the file when there is one (a
 * link, a file of another user, one without write permission), else with the directory.
 */
function whyNotThere(path: string, error: NodeJS.ErrnoException, why: string): string {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    const dirWhy = directoryFailures.get(error.code ?? '');
    if (!dirWhy) return `${path}: ${why}`;
    // Some file systems answer ENOENT for a file they will not create in a directory that exists (/proc).
    return `${dirname(path)} ${error.code === 'ENOENT' && isDirectory(dirname(path)) ? 'is not writable' : dirWhy}`;
  }
  const uid = process.getuid?.();
  if (stat.isSymbolicLink()) return `${path}: ${openFailureReason({ ...error, code: 'ELOOP' })}`;
  if (uid !== undefined && stat.uid !== uid && error.code === 'EACCES') return `${path}: it belongs to another user (uid ${stat.uid})`;
  if (error.code === 'EACCES') return `${path}: it is not writable (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')})`;
  return `${path}: ${why}`;
}

/** Whether a default file can be opened there, safely (no link, a regular file of ours): the honest test, which permissions alone are not for root. */
function canAppendTo(path: string): { ok: true } | { ok: false; why: string } {
  const opened = openOutputFile(path, { named: false });
  if (!opened.ok) return { ok: false, why: whyNotThere(path, opened.error, opened.why) };
  closeSync(opened.fd);
  return { ok: true };
}

/**
 * A path the user named must sit in an existing directory, and be neither a link another user
 * planted in a shared directory nor (without --allow-readable) a file of another user: checked
 * before the server starts (opening it says the rest, and checks again).
 */
export function checkNamedPath(path: string, allowReadable = false): string | undefined {
  const full = resolve(path);
  const dir = dirname(full);
  try {
    if (!statSync(dir).isDirectory()) return `${dir} is not a directory`;
  } catch {
    return `directory ${dir} does not exist`;
  }
  const uid = process.getuid?.();
  const kind = namedPathKind(full, uid);
  if (kind.link && kind.refused) return kind.refused;
  let stat;
  try {
    stat = statSync(full);
  } catch {
    return undefined;
  }
  const readers = stat.isFile() && uid !== undefined && stat.uid !== uid ? otherReaders(stat, uid) : undefined;
  return readers && !allowReadable ? `${readers}; ${allowReadableOption} writes to it all the same` : undefined;
}

/**
 * Makes a directory and its missing parents (0700), one level at a time: a recursive mkdir can
 * loop for ever where a file system answers ENOENT for a parent that exists (`/proc`).
 */
export function makeDirectory(dir: string): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && statSync(dir).isDirectory()) return;
    if (code !== 'ENOENT' || dirname(dir) === dir) throw error;
    makeDirectory(dirname(dir));
    mkdirSync(dir, { mode: 0o700 });
  }
}

/** Makes the state directory (0700) and checks a default file can go there; the reason if not. */
function tryDirectory(dir: string, name: string): string | undefined {
  try {
    makeDirectory(dir);
  } catch (error) {
    return `cannot make ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
  }
  const probe = canAppendTo(join(dir, name));
  return probe.ok ? undefined : probe.why;
}

/**
 * Where the record and the log go. Named paths are used as given. Defaults go to MCP_SPY_DIR when
 * set, else the working directory, else (a client that starts servers in `/`) the state directory;
 * when none will do, to nowhere, and `unavailable` says why: the server runs all the same.
 */
export function resolveOutputPaths(choice: OutputChoice, cwd: string, env: NodeJS.ProcessEnv): OutputPaths {
  const needsDefault = choice.record === undefined || choice.log === undefined;
  const probeName = choice.record === undefined ? defaultNames.record : defaultNames.log;
  let dir: string | undefined = cwd;
  let movedTo: OutputPaths['movedTo'];
  let unavailable: string | undefined;
  if (needsDefault) {
    const here = env.MCP_SPY_DIR ? undefined : canAppendTo(join(cwd, probeName));
    if (!here?.ok) {
      dir = stateDirectory(env);
      const reason = here && !here.ok ? here.why : 'MCP_SPY_DIR';
      unavailable = tryDirectory(dir, probeName);
      if (unavailable) dir = undefined;
      else movedTo = { dir, reason };
    }
  }
  const pick = (value: string | false | undefined, name: string) =>
    value === false ? undefined : value === undefined ? (dir === undefined ? undefined : join(dir, name)) : resolve(cwd, value);
  const paths: OutputPaths = {
    record: pick(choice.record, defaultNames.record),
    log: pick(choice.log, defaultNames.log),
    recordNamed: typeof choice.record === 'string',
    logNamed: typeof choice.log === 'string',
  };
  if (movedTo) paths.movedTo = movedTo;
  if (unavailable) paths.unavailable = unavailable;
  return paths;
}
