// --intercept joined to a spy: the holds, their control socket, and what stderr says of them.
// Loaded only with --intercept: without it no module of it is in the path and no socket is made.
import { rmSync } from 'node:fs';
import type { EventFields } from '../record/schema.js';
import { createHolds, type Holds, type InterceptOptions } from './intercept-holds.js';
import { openControlSocket } from './intercept-socket.js';

export interface InterceptPlan {
  options: InterceptOptions;
  /** Where the control socket goes; absent with why, when it cannot be made (held frames then go on at their bound). */
  socketPath?: string;
  socketProblem?: string;
  /** What the console is told first: the run's record, command, transport. */
  hello: Record<string, unknown>;
}

export interface Intercept {
  holds: Holds;
  /** Stops listening (the socket file goes with it). */
  close(): void;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export async function startIntercept(plan: InterceptPlan, record: (fields: EventFields<'intercept'>) => void, say: (line: string) => void): Promise<Intercept> {
  const { filter, holdMs, maxHeld } = plan.options;
  const holds = createHolds(plan.options, { event: record, say });
  let server: { close: () => void } | undefined;
  let problem = plan.socketProblem;
  if (plan.socketPath) {
    const opened = await openControlSocket(plan.socketPath, holds, { ...plan.hello, filter, holdMs, maxHeld, pid: process.pid });
    if ('close' in opened) server = opened;
    else problem = opened.problem;
  }
  const bounds = `each exchange for ${seconds(holdMs)} at most (--hold-timeout) and ${maxHeld} at once (--max-held), then it goes on as it was`;
  if (server) say(`intercepting ${filter}: a matching frame is held until released in mcp-spy ui (control socket ${plan.socketPath}), ${bounds}`);
  else say(`intercepting ${filter}: ${problem ?? 'no control socket'}; a matching frame is held ${bounds}`);
  // A spy stopped hard still takes its socket file with it.
  const unlink = () => {
    if (server && plan.socketPath) rmSync(plan.socketPath, { force: true });
  };
  process.once('exit', unlink);
  return {
    holds,
    close() {
      process.off('exit', unlink);
      server?.close();
      server = undefined;
    },
  };
}
