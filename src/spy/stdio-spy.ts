import { randomBytes } from 'node:crypto';
import { constants } from 'node:os';
import { startStdioProxy, type StdioFaultHook, type StdioOutcome, type StdioProxy } from '../transports/stdio.js';
import type { CaptureMode } from '../observer/stdio/stdio-messages.js';
import { startStdioObserver } from '../observer/stdio/stdio-handle.js';
import type { ObserverOutputs } from '../observer/observer-outputs.js';
import { writeLastWords } from '../sinks/last-words.js';
import type { StderrOut } from '../sinks/stderr-out.js';
import { nowMs } from '../wire/framing/now.js';
import { sanitize } from '../render/sanitize.js';
import { onStopSignals } from './signals.js';
import { orderStderr } from './stderr-order.js';
import type { FaultRule } from '../faults/rule-types.js';
import type { InterceptPlan } from '../faults/intercept-hook.js';

export interface StdioSpyOptions {
  command: string;
  args: string[];
  observer: ObserverOutputs;
  stderrOut: StderrOut;
  warn: (message: string) => void;
  version: string;
  /** Once the server has exited, how long finishing the record may keep the client waiting. */
  drainTimeoutMs: number;
  /** --capture: when the observer captures whole lines rather than analyse them (default: when pressed for time). */
  capture?: CaptureMode;
  /**
   * --lossless: the traffic waits for the record instead of the record leaving gaps; finishing the
   * record is not cut short by `drainTimeoutMs` (only by a stop signal).
   */
  lossless?: boolean;
  /** A stop signal that arrived while the spy was starting, taken once the spy's own handlers are in place. */
  earlySignal?: () => NodeJS.Signals | undefined;
  /** Who the run is, when a client's config started it: written on the spawn entry. */
  label?: { client: string; name: string };
  /** Fault rules (--fault): only then does anything but plain forwarding sit in the path. */
  faults?: { rules: FaultRule[]; seed: number };
  /** --intercept: matching frames are held until released from the console (or at their bound). */
  intercept?: InterceptPlan;
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
  // Fault rules and --intercept mark frames, the exports follow each: every frame is analysed.
  const analyseAll = options.faults !== undefined || options.intercept !== undefined || options.observer.export !== undefined;
  const capture: CaptureMode = analyseAll ? 'never' : (options.capture ?? 'pressed');
  const observer = startStdioObserver({ ...options.observer, session, capture }, { warn: options.warn, lossless: options.lossless === true });
  const command = [options.command, ...options.args];
  const label = options.label ?? {};
  let proxy: StdioProxy | undefined;
  let exited = false;
  const stopListening = onStopSignals((signal) => {
    if (proxy && !exited) proxy.kill(signal);
    else {
      proxy?.hurry();
      observer.hurry(signal);
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
    // --intercept is refused beside fault rules (see the command), so one hook at most sits in the path.
    const intercept = options.intercept ? await interceptHook(options.intercept, observer, session, options.stderrOut) : undefined;
    const faultHook = options.faults
      ? (await import('../faults/stdio-hook.js')).stdioFaultHook(options.faults, observer, (bytes) => options.stderrOut.pass(bytes))
      : intercept?.hook;
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
      tap: {
        clientChunk: (chunk) => observer.chunk('c2s', chunk),
        clientEnd: () => observer.end('c2s'),
        serverChunk: (chunk) => observer.chunk('s2c', chunk),
        serverEnd: () => observer.end('s2c'),
        stderrChunk: (chunk) => observer.chunk('stderr', chunk),
        stderrEnd: () => observer.end('stderr'),
        roomFor: (stream) => observer.roomFor(stream),
      },
    });
    const exitedAt = proxy.exited.then(() => {
      exited = true;
      ordered?.release();
      return nowMs();
    });
    outcome = await proxy.outcome;
    intercept?.close();
    const spent = nowMs() - (await exitedAt);
    if (outcome.started) observer.event('exit', { code: outcome.code, signal: outcome.signal });
    else observer.event('exit', { code: null, signal: null, reason: `cannot start ${options.command}: ${outcome.why} (${outcome.errorCode})` });
    // The time allowed runs from the server's exit: waiting for its last bytes counts too.
    drainMs = Math.max(0, drainMs - spent);
  }

  const finished = await observer.finish(options.lossless ? Infinity : drainMs);
  stopListening();
  if (!finished.closed) await writeLastWords(options.observer, finished, session, options.warn);
  return outcome;
}

/** The hook of --intercept: its holds and control socket, loaded only then; `close` stops the socket. */
async function interceptHook(plan: InterceptPlan, observer: ReturnType<typeof startStdioObserver>, session: string, stderrOut: StderrOut) {
  const { startIntercept } = await import('../faults/intercept-hook.js');
  const { createStdioIntercept } = await import('../faults/intercept-stdio.js');
  // Never dropped, as the live view's lines may be: a held frame's line says how to let it go.
  const say = (line: string) => void stderrOut.pass(Buffer.from(`mcp-spy: ${sanitize(line)}\n`));
  const intercept = await startIntercept({ ...plan, hello: { ...plan.hello, session } }, (fields) => observer.event('intercept', fields), say);
  const hook: StdioFaultHook = (io) =>
    createStdioIntercept(intercept.holds, session, io, {
      line: (dir, bytes, mark) => {
        if (mark) observer.markNext(dir, mark);
        observer.chunk(dir, bytes);
      },
    });
  return { hook, close: intercept.close };
}
