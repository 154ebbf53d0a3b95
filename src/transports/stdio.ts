import { constants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { spawnServer, type SpawnFailure } from './spawn-server.js';
import { waitForQuiet } from './quiet.js';
import { openServerPipes } from './server-pipes.js';
import { drained, holdReading } from './read-gate.js';

/**
 * The stdio transport's tap: told of each chunk once it was forwarded, and of each stream's end.
 * It only reads; what it does with a copy (the spy hands it to the observer thread) never holds the bytes up.
 */
export interface StdioTap {
  clientChunk(chunk: Buffer): void;
  clientEnd(): void;
  serverChunk(chunk: Buffer): void;
  serverEnd(): void;
  stderrChunk(chunk: Buffer): void;
  stderrEnd(): void;
  /**
   * With --lossless, while the observer cannot take more of a stream: the transport reads no more
   * of it until this resolves (the writer then waits, as a full pipe makes it).
   */
  roomFor?(stream: 'c2s' | 's2c' | 'stderr'): Promise<void> | undefined;
}

/**
 * A stand-in for plain forwarding, used only with fault rules (--fault) or --intercept: it is given both ends
 * and sees every chunk instead of them; it writes on, and tells the observer, itself.
 */
export type StdioFaultHook = (io: { write(dir: 'c2s' | 's2c', bytes: Buffer): void; disconnect(): void }) => {
  chunk(dir: 'c2s' | 's2c', chunk: Buffer): void;
  end(dir: 'c2s' | 's2c', done: () => void): void;
  stop(): void;
};

export interface StdioProxyOptions {
  command: string;
  args: string[];
  tap: StdioTap;
  /** Where the server's stderr goes; false asks the server to wait, as a full pipe would. */
  passStderr: (chunk: Buffer) => boolean;
  stderrDrained: () => Promise<void>;
  /** Called once the server runs, before any of its bytes are seen. */
  onSpawn?: (pid: number) => void;
  /** The client closed its end of our stdout: the server's stdout is closed too, so it finds out as it would. */
  onClientGone?: (why: string) => void;
  /**
   * Once the server has exited, how long its output may still take to arrive: a child of the
   * server that holds its stdout open must not keep the client waiting.
   */
  settleMs: number;
  input?: Readable;
  output?: Writable;
  faults?: StdioFaultHook;
}

export type StdioOutcome = { started: true; pid: number; code: number | null; signal: string | null; exitCode: number } | ({ started: false } & SpawnFailure);

/** A running server: signal it, and learn how it ended. */
export interface StdioProxy {
  kill(signal: NodeJS.Signals): void;
  /** Stop waiting for the last bytes of a server that has exited. */
  hurry(): void;
  /** Resolves when the server has exited (or could not be started). */
  exited: Promise<void>;
  /** Resolves once the server has exited and its last bytes have been passed on. */
  outcome: Promise<StdioOutcome>;
}

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
export function startStdioProxy(options: StdioProxyOptions): StdioProxy {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const { tap } = options;
  const pipes = openServerPipes();
  // Descriptors of our own are passed as they are; without them, pipes.
  const { child, exit, failure } = spawnServer(options.command, options.args, pipes ? pipes.child : 'pipe');
  pipes?.closeChildEnds();
  const serverIn = pipes?.stdin ?? child.stdin!;
  const serverOut = pipes?.stdout ?? child.stdout!;
  const serverErr = pipes?.stderr ?? child.stderr!;

  let outputOpen = true;
  output.on('error', (error: NodeJS.ErrnoException) => {
    if (!outputOpen) return;
    outputOpen = false;
    // Without the spy the server would get EPIPE on its next write: closing our end of its
    // stdout gives it exactly that, and a server that ignores EOF still ends.
    serverOut.destroy();
    options.onClientGone?.(`the client closed its end of stdout (${error.code ?? error.message}); the server's stdout was closed too`);
  });

  // With fault rules too, a full pipe pauses the side that fills it (once, until it drains).
  let inputHeld = false;
  let serverOutHeld = false;
  const faults = options.faults?.({
    write: (dir, bytes) => {
      if (dir === 'c2s' && !serverIn.destroyed && !serverIn.write(bytes) && !inputHeld) {
        inputHeld = true;
        input.pause();
        serverIn.once('drain', () => {
          inputHeld = false;
          input.resume();
        });
      }
      if (dir === 's2c' && outputOpen && !output.write(bytes) && !serverOutHeld) {
        serverOutHeld = true;
        serverOut.pause();
        output.once('drain', () => {
          serverOutHeld = false;
          serverOut.resume();
        });
      }
    },
    // As a crash would: the server's pipes close, the client sees its stdout end.
    disconnect: () => {
      serverIn.destroy();
      serverOut.destroy();
      child.kill('SIGTERM');
    },
  });
  /** Streams whose reading waits for the observer: the end's quiet wait does not cut them short. */
  const waitingForRecord = new Set<Readable>();
  const waitForObserver = (stream: Readable, name: 'c2s' | 's2c' | 'stderr') => {
    const room = tap.roomFor?.(name);
    if (!room) return;
    waitingForRecord.add(stream);
    holdReading(
      stream,
      room.then(() => void waitingForRecord.delete(stream)),
    );
  };
  const onInput = (chunk: Buffer) => {
    if (faults) faults.chunk('c2s', chunk);
    else {
      if (!serverIn.destroyed && !serverIn.write(chunk)) holdReading(input, drained(serverIn));
      tap.clientChunk(chunk);
    }
    waitForObserver(input, 'c2s');
  };
  const onInputEnd = () => {
    if (faults) {
      faults.end('c2s', () => {
        serverIn.end();
        tap.clientEnd();
      });
      return;
    }
    serverIn.end();
    tap.clientEnd();
  };
  const stopInput = () => {
    input.off('data', onInput);
    input.off('end', onInputEnd);
    input.pause();
  };

  if (child.pid !== undefined) {
    options.onSpawn?.(child.pid);
    serverIn.on('error', () => {});
    serverOut.on('error', () => {});
    serverErr.on('error', () => {});
    input.on('error', () => {});
    input.on('data', onInput);
    input.on('end', onInputEnd);

    serverOut.on('data', (chunk: Buffer) => {
      if (faults) faults.chunk('s2c', chunk);
      else {
        if (outputOpen && !output.write(chunk)) holdReading(serverOut, drained(output));
        tap.serverChunk(chunk);
      }
      waitForObserver(serverOut, 's2c');
    });
    serverOut.on('end', () => (faults ? faults.end('s2c', () => tap.serverEnd()) : tap.serverEnd()));
    serverErr.on('data', (chunk: Buffer) => {
      if (!options.passStderr(chunk)) holdReading(serverErr, options.stderrDrained());
      tap.stderrChunk(chunk);
      waitForObserver(serverErr, 'stderr');
    });
    serverErr.on('end', () => tap.stderrEnd());
  }

  let hurry = () => {};
  const hurried = new Promise<void>((resolve) => (hurry = resolve));

  const outcome = (async (): Promise<StdioOutcome> => {
    if (child.pid === undefined) {
      for (const stream of [serverIn, serverOut, serverErr]) stream.destroy();
      return { started: false, ...(await failure) };
    }
    const { code, signal } = await exit;
    stopInput();
    faults?.stop();
    // The server's exit ends the session, as it does without the spy: what its pipes still hold
    // is passed on, but a child of the server that keeps them open is not waited for.
    await waitForQuiet([serverOut, serverErr], options.settleMs, hurried, (stream) => waitingForRecord.has(stream));
    if (!serverOut.readableEnded) serverOut.destroy();
    if (!serverErr.readableEnded) serverErr.destroy();
    return { started: true, pid: child.pid, code, signal, exitCode: exitCodeOf(code, signal) };
  })();

  return {
    kill: (signal) => {
      child.kill(signal);
    },
    hurry,
    exited: Promise.race([exit.then(() => undefined), outcome.then(() => undefined)]),
    outcome,
  };
}
