import { connect } from 'node:net';
import { execa, type ResultPromise } from 'execa';
import { describeSpawnFailure } from './spawn-failure.js';
import { exitCodeOf } from './stdio.js';

export type ServerOutcome = { started: true; code: number | null; signal: string | null; exitCode: number } | { started: false; message: string; exitCode: number };

/** A server command run beside the HTTP spy: its output goes to our stderr, its end is reported. */
export function startServerProcess(command: string, args: string[]) {
  const child: ResultPromise = execa(command, args, {
    stdin: 'ignore',
    stdout: ['inherit'],
    stderr: 'inherit',
    reject: false,
    cleanup: true,
    forceKillAfterDelay: 3000,
  });
  const outcome: Promise<ServerOutcome> = child.then((result) => {
    if (child.pid === undefined || (result.failed && result.exitCode === undefined && !result.signal)) {
      const code = String(result.code ?? 'ESPAWN');
      const { why, exitCode } = describeSpawnFailure(code, result.originalMessage ?? code);
      return { started: false, message: why, exitCode };
    }
    const code = result.exitCode ?? null;
    const signal = result.signal ?? null;
    return { started: true, code, signal, exitCode: exitCodeOf(code, signal) };
  });
  return { pid: child.pid, outcome, stop: () => child.kill('SIGTERM') };
}

/** Resolves true once host:port accepts a connection, false when `until` settles first or time runs out. */
export async function waitForPort(host: string, port: number, timeoutMs: number, until: Promise<unknown>): Promise<boolean> {
  let over = false;
  void until.then(() => (over = true));
  const deadline = Date.now() + timeoutMs;
  while (!over && Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host, port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}
