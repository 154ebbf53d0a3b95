import { randomBytes } from 'node:crypto';
import { runStdioProxy, type StdioOutcome } from '../transports/stdio.js';
import { startObserver } from './observer-channel.js';
import type { ObserverConfig } from './observer-protocol.js';
import type { StderrOut } from './stderr-out.js';

export interface StdioSessionOptions {
  command: string;
  args: string[];
  observer: Omit<ObserverConfig, 'session'>;
  stderrOut: StderrOut;
  warn: (message: string) => void;
  version: string;
}

/** A short id that tells this run's entries apart from those of other spies sharing the record. */
export function newSessionId(): string {
  return `${process.pid.toString(36)}-${randomBytes(3).toString('hex')}`;
}

/** Runs one server under the spy: forwards here, observes on another thread; resolves at exit. */
export async function runStdioSession(options: StdioSessionOptions): Promise<StdioOutcome> {
  const session = newSessionId();
  const observer = startObserver({ ...options.observer, session }, { warn: options.warn });

  const outcome = await runStdioProxy({
    command: options.command,
    args: options.args,
    passStderr: (chunk) => options.stderrOut.pass(chunk),
    stderrDrained: () => options.stderrOut.drained(),
    onSpawn: (pid) => {
      observer.event('spawn', {
        transport: 'stdio',
        command: [options.command, ...options.args],
        pid,
        cwd: process.cwd(),
        spy: options.version,
      });
    },
    observer: {
      clientChunk: (chunk) => observer.chunk('c2s', chunk),
      clientEnd: () => observer.end('c2s'),
      serverChunk: (chunk) => observer.chunk('s2c', chunk),
      serverEnd: () => observer.end('s2c'),
      stderrChunk: (chunk) => observer.chunk('stderr', chunk),
      stderrEnd: () => observer.end('stderr'),
    },
  });

  if (outcome.started) observer.event('exit', { code: outcome.code, signal: outcome.signal });
  else observer.event('exit', { code: null, signal: null, reason: `${options.command}: ${outcome.errorCode}` });
  await observer.finish();
  return outcome;
}
