import { ChildProcess, spawn, type StdioOptions } from 'node:child_process';

/** Why a server command could not be started, and the exit status a shell would give. */
const spawnFailures: Record<string, { why: string; exitCode: number }> = {
  ENOENT: { why: 'command not found', exitCode: 127 },
  EACCES: { why: 'permission denied (not executable?)', exitCode: 126 },
};

/** Reads a spawn error code (node:child_process) into one line and an exit status. */
export function describeSpawnFailure(code: string, message: string): { why: string; exitCode: number } {
  return spawnFailures[code] ?? { why: message, exitCode: 127 };
}

/** Why a command could not be started: the system's code (ENOENT ...), in words, and the exit status a shell would give. */
export interface SpawnFailure {
  errorCode: string;
  why: string;
  exitCode: number;
}

/** A server command started, or why it could not be. */
export interface SpawnedServer {
  child: ChildProcess;
  /** Resolves with how it ended, once it ran; never rejects. */
  exit: Promise<{ code: number | null; signal: string | null }>;
  /** Resolves with the reason when it could not be started (then `child.pid` is undefined). */
  failure: Promise<SpawnFailure>;
}

/**
 * Starts a server command (node:child_process: the spy loads no process library for this). A spy
 * that exits before its server, for whatever reason, takes the server with it.
 */
export function spawnServer(command: string, args: string[], stdio: StdioOptions, options: { group?: boolean } = {}): SpawnedServer {
  let child: ChildProcess;
  try {
    child = spawn(command, args, { stdio, detached: options.group === true });
  } catch (error) {
    // Arguments the system cannot take (a NUL byte): a failure to start like any other.
    const why = error instanceof Error ? error.message : String(error);
    return { child: new ChildProcess(), exit: new Promise(() => {}), failure: Promise.resolve({ errorCode: 'ESPAWN', why, exitCode: 127 }) };
  }
  const orphaned = () => {
    if (child.exitCode === null && child.signalCode === null) signalServer(child, 'SIGTERM', options.group === true);
  };
  process.once('exit', orphaned);
  const failure = new Promise<SpawnFailure>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (child.pid !== undefined) return;
      const errorCode = String(error.code ?? 'ESPAWN');
      resolve({ errorCode, ...describeSpawnFailure(errorCode, error.message) });
    });
  });
  const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      process.off('exit', orphaned);
      resolve({ code, signal });
    });
  });
  if (child.pid === undefined) void failure.then(() => process.off('exit', orphaned));
  return { child, exit, failure };
}

/**
 * Signals a server; with `group` (it was started as the leader of its own process group) the whole
 * group, so that a launcher that does not pass signals on (npx, a shell) leaves no server behind.
 */
export function signalServer(child: ChildProcess, signal: NodeJS.Signals, group: boolean): void {
  if (group && child.pid !== undefined) {
    try {
      process.kill(-child.pid, signal);
      return;
    } catch {
      // The group is gone already, or is not ours to signal: the child alone, as without a group.
    }
  }
  child.kill(signal);
}
