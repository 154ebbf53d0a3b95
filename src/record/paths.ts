import { accessSync, closeSync, constants, mkdirSync, openSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export interface OutputChoice {
  /** false: do not write this file; a string: the path the user named; undefined: the default. */
  record?: string | false;
  log?: string | false;
}

export interface OutputPaths {
  record?: string;
  log?: string;
  /** Set when the default files went somewhere other than the working directory, and why. */
  movedTo?: { dir: string; reason: string };
}

export const defaultNames = { record: 'wire.jsonl', log: 'wire.log' } as const;

/** The per-user state directory used when the working directory cannot take the files. */
export function stateDirectory(env: NodeJS.ProcessEnv): string {
  if (env.MCP_SPY_DIR) return resolve(env.MCP_SPY_DIR);
  const base = env.XDG_STATE_HOME || join(homedir(), '.local', 'state');
  return join(base, 'mcp-spy');
}

function isWritableDirectory(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Whether the file can be opened for appending there: the honest test, which permissions alone are not for root. */
function canAppendTo(path: string): boolean {
  try {
    closeSync(openSync(path, 'a', 0o600));
    return true;
  } catch {
    return false;
  }
}

/** A path the user named must sit in an existing, writable directory: checked before the server starts. */
export function checkNamedPath(path: string): string | undefined {
  const dir = dirname(resolve(path));
  try {
    if (!statSync(dir).isDirectory()) return `${dir} is not a directory`;
  } catch {
    return `directory ${dir} does not exist`;
  }
  if (!isWritableDirectory(dir)) return `directory ${dir} is not writable`;
  return undefined;
}

/**
 * Where the record and the log go. Named paths are used as given. Defaults go to MCP_SPY_DIR when
 * set, else the working directory, else (a client that starts servers in `/`) the state directory.
 */
export function resolveOutputPaths(choice: OutputChoice, cwd: string, env: NodeJS.ProcessEnv): OutputPaths {
  const needsDefault = choice.record === undefined || choice.log === undefined;
  let dir = cwd;
  let movedTo: OutputPaths['movedTo'];
  if (needsDefault && env.MCP_SPY_DIR) {
    dir = stateDirectory(env);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    movedTo = { dir, reason: 'MCP_SPY_DIR' };
  } else if (needsDefault && !canAppendTo(join(cwd, choice.record === undefined ? defaultNames.record : defaultNames.log))) {
    dir = stateDirectory(env);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    movedTo = { dir, reason: `${cwd} is not writable` };
  }
  const pick = (value: string | false | undefined, name: string) =>
    value === false ? undefined : value === undefined ? join(dir, name) : resolve(cwd, value);
  const paths: OutputPaths = { record: pick(choice.record, defaultNames.record), log: pick(choice.log, defaultNames.log) };
  if (movedTo) paths.movedTo = movedTo;
  return paths;
}
