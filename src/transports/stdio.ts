import { constants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { execa } from 'execa';
import { describeSpawnFailure } from './spawn-failure.js';

export interface StdioObserver {
  clientChunk(chunk: Buffer): void;
  clientEnd(): void;
  serverChunk(chunk: Buffer): void;
  serverEnd(): void;
  stderrChunk(chunk: Buffer): void;
  stderrEnd(): void;
}

export interface StdioProxyOptions {
  command: string;
  args: string[];
  observer: StdioObserver;
  /** Where the server's stderr goes; false asks the server to wait, as a full pipe would. */
  passStderr: (chunk: Buffer) => boolean;
  stderrDrained: () => Promise<void>;
  /** Called once the server runs, before any of its bytes are seen. */
  onSpawn?: (pid: number) => void;
  input?: Readable;
  output?: Writable;
}

export type StdioOutcome =
  | { started: true; pid: number; code: number | null; signal: string | null; exitCode: number }
  | { started: false; errorCode: string; why: string; exitCode: number };

const forwardedSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** 128 + n for a signal, as a shell reports it. */
export function exitCodeOf(code: number | null | undefined, signal: string | null | undefined): number {
  if (typeof code === 'number') return code;
  const number = signal ? constants.signals[signal as keyof typeof constants.signals] : undefined;
  return number ? 128 + number : 1;
}

/**
 * Runs the server with its stdin and stdout joined to ours. Bytes are written onward first and only
 * then shown to the observer, which works on the same chunk and never holds the forwarding up.
 */
export async function runStdioProxy(options: StdioProxyOptions): Promise<StdioOutcome> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const { observer } = options;
  const child = execa(options.command, options.args, {
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    reject: false,
    encoding: 'buffer',
    forceKillAfterDelay: false,
    cleanup: true,
  });

  let outputOpen = true;
  output.on('error', () => {
    outputOpen = false;
  });

  const onSignal = (signal: NodeJS.Signals) => {
    child.kill(signal);
  };
  const stop = () => {
    for (const signal of forwardedSignals) process.off(signal, onSignal);
    input.off('data', onInput);
    input.off('end', onInputEnd);
    input.pause();
  };

  const onInput = (chunk: Buffer) => {
    if (child.stdin && !child.stdin.destroyed && !child.stdin.write(chunk)) {
      input.pause();
      child.stdin.once('drain', () => input.resume());
    }
    observer.clientChunk(chunk);
  };
  const onInputEnd = () => {
    child.stdin?.end();
    observer.clientEnd();
  };

  if (child.pid !== undefined) {
    options.onSpawn?.(child.pid);
    for (const signal of forwardedSignals) process.on(signal, onSignal);
    child.stdin?.on('error', () => {});
    input.on('data', onInput);
    input.on('end', onInputEnd);

    child.stdout?.on('data', (chunk: Buffer) => {
      if (outputOpen && !output.write(chunk)) {
        child.stdout!.pause();
        output.once('drain', () => child.stdout!.resume());
      }
      observer.serverChunk(chunk);
    });
    child.stdout?.on('end', () => observer.serverEnd());
    child.stderr?.on('data', (chunk: Buffer) => {
      if (!options.passStderr(chunk)) {
        child.stderr!.pause();
        void options.stderrDrained().then(() => child.stderr!.resume());
      }
      observer.stderrChunk(chunk);
    });
    child.stderr?.on('end', () => observer.stderrEnd());
  }

  const result = await child;
  stop();
  if (child.pid === undefined || (result.failed && result.exitCode === undefined && !result.signal && result.code)) {
    const errorCode = String(result.code ?? 'ESPAWN');
    const { why, exitCode } = describeSpawnFailure(errorCode, result.originalMessage ?? result.shortMessage ?? errorCode);
    return { started: false, errorCode, why, exitCode };
  }
  const code = result.exitCode ?? null;
  const signal = result.signal ?? null;
  return { started: true, pid: child.pid, code, signal, exitCode: exitCodeOf(code, signal) };
}
