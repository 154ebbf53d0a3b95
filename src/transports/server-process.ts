import { connect } from 'node:net';
import { signalServer, spawnServer } from './spawn-server.js';
import { exitCodeOf } from './stdio.js';

export type ServerOutcome =
  | { started: true; code: number | null; signal: string | null; exitCode: number }
  | { started: false; message: string; exitCode: number };

/** How long a server asked to stop may take before it is killed. */
const killAfterMs = 3000;

/**
 * A server command run beside the HTTP spy: its output goes to ours, its end is reported. It leads a
 * process group of its own, and stopping it stops the group: the server behind `npx` or `sh -c` too.
 */
export function startServerProcess(command: string, args: string[]) {
  const { child, exit, failure } = spawnServer(command, args, ['ignore', 'inherit', 'inherit'], { group: true });
  const outcome: Promise<ServerOutcome> = Promise.race([
    exit.then(({ code, signal }): ServerOutcome => ({ started: true, code, signal, exitCode: exitCodeOf(code, signal) })),
    failure.then(({ why, exitCode }): ServerOutcome => ({ started: false, message: why, exitCode })),
  ]);
  const stop = () => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    signalServer(child, 'SIGTERM', true);
    const timer = setTimeout(() => signalServer(child, 'SIGKILL', true), killAfterMs);
    void exit.then(() => clearTimeout(timer));
  };
  return { pid: child.pid, outcome, stop };
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
