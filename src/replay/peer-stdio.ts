import { spawnServer } from '../transports/spawn-server.js';
import { decodeFrame } from '../wire/classify/decode.js';
import { createLineFramer } from '../wire/framing/line-framer.js';
import { ReplayError } from '../recording/errors.js';
import type { Peer, PeerHandlers } from './peer.js';

/** Starts a fresh server process for one session and speaks newline-delimited JSON-RPC with it. */
export async function startStdioPeer(command: readonly string[], handlers: PeerHandlers): Promise<Peer> {
  const [file, ...args] = command;
  if (!file) throw new ReplayError('no server command given (put it after --)');
  const { child, exit, failure } = spawnServer(file, args, ['pipe', 'pipe', 'pipe']);
  if (child.pid === undefined) {
    const { why, exitCode } = await failure;
    throw new ReplayError(`cannot start the server ${file}: ${why}`, exitCode);
  }
  const stdin = child.stdin!;
  const stdout = child.stdout!;
  const stderr = child.stderr!;
  const stderrLines: string[] = [];
  stderr.setEncoding('utf8');
  stderr.on('data', (text: string) => {
    stderrLines.push(...text.split('\n').filter((line) => line.trim() !== ''));
    stderrLines.splice(0, Math.max(0, stderrLines.length - 20));
  });
  stdin.on('error', () => {});
  const framer = createLineFramer(64 * 1024 * 1024);
  const deliver = (bytes: Buffer) => {
    const decoded = decodeFrame(bytes);
    // Lines that are not JSON (stdout noise) are not messages; the record already notes them.
    if (decoded.ok) handlers.message(decoded.value, decoded.text);
  };
  stdout.on('data', (chunk: Buffer) => {
    for (const line of framer.push(chunk)) deliver(line.bytes);
  });
  const exited = exit.then(({ code, signal }) => {
    handlers.closed(signal ? `the server was stopped by ${signal}` : `the server exited with code ${code}`);
  });
  let closing = false;
  return {
    send(raw) {
      if (!closing && stdin.writable) stdin.write(`${raw}\n`);
    },
    async close() {
      closing = true;
      stdin.end();
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
