import type { Readable, Writable } from 'node:stream';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { decodeFrame } from '../wire/classify/decode.js';
import { createLineFramer } from '../wire/framing/line-framer.js';
import type { MockChannel, MockEngine } from './mock-engine.js';

export interface MockStdioIo {
  input: Readable;
  output: Writable;
  /** One line about a request the mock closed on (`--on-miss close`). */
  warn: (line: string) => void;
}

/**
 * Serves one client over newline-delimited JSON-RPC until its input ends. Resolves with the exit
 * status: 0, or 1 when it closed on a request it had no answer for.
 */
export async function serveMockStdio(engine: MockEngine, io: MockStdioIo): Promise<number> {
  const framer = createLineFramer(64 * 1024 * 1024);
  const channel: MockChannel = {
    send: (message: JsonObject) => {
      if (io.output.writable) io.output.write(`${JSON.stringify(message)}\n`);
    },
  };
  const handling = new Set<Promise<void>>();
  let exitCode = 0;
  const finished = new Promise<void>((resolve) => {
    const stop = () => {
      io.input.off('data', onData);
      engine.end();
      resolve();
    };
    const handle = (text: string, value: unknown) => {
      const task = engine.receive(value, channel, channel).then((verdict) => {
        if (verdict !== 'close') return;
        io.warn(`mcp-spy mock: no recorded answer for ${text.slice(0, 200)}; closing (--on-miss close)`);
        exitCode = 1;
        stop();
      });
      handling.add(task);
      void task.finally(() => handling.delete(task));
    };
    const onData = (chunk: Buffer) => {
      for (const line of framer.push(chunk)) {
        const decoded = decodeFrame(line.bytes);
        if (decoded.ok) handle(decoded.text, decoded.value);
        else if (line.bytes.length > 0) channel.send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      }
    };
    io.input.on('data', onData);
    io.input.once('end', stop);
    io.input.once('close', stop);
  });
  await finished;
  if (exitCode === 0) await Promise.allSettled([...handling]);
  return exitCode;
}
