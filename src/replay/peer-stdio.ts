import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describeSpawnFailure } from '../transports/spawn-failure.js';
import { decodeFrame } from '../wire/decode.js';
import { createLineFramer } from '../wire/line-framer.js';
import { ReplayError } from './errors.js';
import type { Peer, PeerHandlers } from './peer.js';

/** Starts a fresh server process for one session and speaks newline-delimited JSON-RPC with it. */
export async function startStdioPeer(command: readonly string[], handlers: PeerHandlers): Promise<Peer> {
  const [file, ...args] = command;
  if (!file) throw new ReplayError('no server command given (put it after --)');
  const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  try {
    await Promise.race([once(child, 'spawn'), once(child, 'error').then(([error]) => Promise.reject(error))]);
  } catch (error) {
    const failure = describeSpawnFailure((error as NodeJS.ErrnoException).code ?? '', (error as Error).message);
    throw new ReplayError(`cannot start the server ${file}: ${failure.why}`, failure.exitCode);
  }
  const stderrLines: string[] = [];
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    stderrLines.push(...text.split('\n').filter((line) => line.trim() !== ''));
    stderrLines.splice(0, Math.max(0, stderrLines.length - 20));
  });
  child.stdin.on('error', () => {});
  const framer = createLineFramer(64 * 1024 * 1024);
  const deliver = (bytes: Buffer) => {
    const decoded = decodeFrame(bytes);
    // Lines that are not JSON (stdout noise) are not messages; the record already notes them.
    if (decoded.ok) handlers.message(decoded.value, decoded.text);
  };
  child.stdout.on('data', (chunk: Buffer) => {
    for (const line of framer.push(chunk)) deliver(line.bytes);
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      handlers.closed(signal ? `the server was stopped by ${signal}` : `the server exited with code ${code}`);
      resolve();
    });
  });
  let closing = false;
  return {
    send(raw) {
      if (!closing && child.stdin.writable) child.stdin.write(`${raw}\n`);
    },
    async close() {
      closing = true;
      child.stdin.end();
      const stopAfter = (ms: number, signal: NodeJS.Signals) =>
        setTimeout(() => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
        }, ms);
      const timers = [stopAfter(1000, 'SIGTERM'), stopAfter(2500, 'SIGKILL')];
      await exited;
      for (const timer of timers) clearTimeout(timer);
    },
    // The line that names the error (a stack trace's message), else the last one.
    stderrTail: () => (stderrLines.findLast((line) => /error/i.test(line)) ?? stderrLines.at(-1) ?? '').trim(),
  };
}
