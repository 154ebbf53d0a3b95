import { randomBytes } from 'node:crypto';
import { constants } from 'node:os';
import { startStdioProxy, type StdioOutcome, type StdioProxy } from '../transports/stdio.js';
import { startStdioObserver } from '../observer/stdio/stdio-handle.js';
import type { ObserverOutputs } from '../observer/observer-outputs.js';
import { appendLastWords } from '../sinks/last-words.js';
import type { StderrOut } from '../sinks/stderr-out.js';
import { nowMs } from '../wire/framing/now.js';
import { onStopSignals } from './signals.js';
import { orderStderr } from './stderr-order.js';
import type { FaultRule } from '../faults/rule-types.js';

export interface StdioSpyOptions {
  command: string;
  args: string[];
  observer: ObserverOutputs;
  stderrOut: StderrOut;
  warn: (message: string) => void;
  version: string;
  /** Once the server has exited, how long finishing the record may keep the client waiting. */
  drainTimeoutMs: number;
  /** A stop signal that arrived while the spy was starting, taken once the spy's own handlers are in place. */
  earlySignal?: () => NodeJS.Signals | undefined;
  /** Who the run is, when a client's config started it: written on the spawn entry. */
  label?: { client: string; name: string };
  /** Fault rules (--fault): only then does anything but plain forwarding sit in the path. */
  faults?: { rules: FaultRule[]; seed: number };
}

/** A short id that tells this run's entries apart from those of other spies sharing the record. */
export function newSessionId(): string {
  return `${process.pid.toString(36)}-${randomBytes(3).toString('hex')}`;
}

/**
 * Runs one server under the spy: forwards here, observes on another thread; resolves at exit.
 * Stop signals go to the server while it runs; once it has exited they cut the finishing short.
 */
export async function runStdioSpy(options: StdioSpyOptions): Promise<StdioOutcome> {
  const session = newSessionId();
  const observer = startStdioObserver({ ...options.observer, session }, { warn: options.warn });
  const command = [options.command, ...options.args];
  const label = options.label ?? {};
  let proxy: StdioProxy | undefined;
  let exited = false;
  const stopListening = onStopSignals((signal) => {
    if (proxy && !exited) proxy.kill(signal);
    else {
      proxy?.hurry();
      observer.hurry();
    }
  });

  const early = options.earlySignal?.();
  let outcome: StdioOutcome;
  let drainMs = options.drainTimeoutMs;
  if (early) {
    // Stopped before the server ran: it is not started, and the record says so.
    const reason = `${early} arrived before the server was started`;
    observer.event('spawn', { transport: 'stdio', command, cwd: process.cwd(), spy: options.version, ...label, reason });
    outcome = { started: false, errorCode: early, why: `stopped by ${early} before it started`, exitCode: 128 + constants.signals[early] };
    observer.event('exit', { code: null, signal: early, reason });
  } else {
    // Loaded only with fault rules: without them not one module of it is in the path.
    const faultHook = options.faults ? (await import('../faults/stdio-hook.js')).stdioFaultHook(options.faults, observer, (bytes) => options.stderrOut.pass(bytes)) : undefined;
    // With a live view on the same stderr, the server's stderr follows the frames seen before it.
    const ordered = options.observer.live ? orderStderr(options.stderrOut, observer.mark, observer.shownThrough) : undefined;
    const stderr = ordered ?? options.stderrOut;
    proxy = startStdioProxy({
      command: options.command,
      args: options.args,
      settleMs: options.drainTimeoutMs,
      passStderr: (chunk) => stderr.pass(chunk),
      stderrDrained: () => stderr.drained(),
      onSpawn: (pid) => observer.event('spawn', { transport: 'stdio', command, pid, cwd: process.cwd(), spy: options.version, ...label }),
      onClientGone: (why) => observer.event('note', { notes: ['client-gone'], text: why }),
      ...(faultHook ? { faults: faultHook } : {}),
      observer: {
        clientChunk: (chunk) => observer.chunk('c2s', chunk),
        clientEnd: () => observer.end('c2s'),
        serverChunk: (chunk) => observer.chunk('s2c', chunk),
        serverEnd: () => observer.end('s2c'),
        stderrChunk: (chunk) => observer.chunk('stderr', chunk),
        stderrEnd: () => observer.end('stderr'),
      },
    });
    const exitedAt = proxy.exited.then(() => {
      exited = true;
      ordered?.release();
      return nowMs();
    });
    outcome = await proxy.outcome;
    const spent = nowMs() - (await exitedAt);
    if (outcome.started) observer.event('exit', { code: outcome.code, signal: outcome.signal });
    else observer.event('exit', { code: null, signal: null, reason: `cannot start ${options.command}: ${outcome.why} (${outcome.errorCode})` });
    // The time allowed runs from the server's exit: waiting for its last bytes counts too.
    drainMs = Math.max(0, drainMs - spent);
  }

  const finished = await observer.finish(drainMs);
  stopListening();
  if (!finished.closed && options.observer.recordPath) {
    options.warn('the observer did not finish in time; the record ends with a gap for what it did not record');
    appendLastWords(options.observer.recordPath, { named: options.observer.recordNamed ?? false, allowReadable: options.observer.allowReadable ?? false, session, lastSeq: finished.lastSeq, tail: finished.tail });
  }
  return outcome;
}
