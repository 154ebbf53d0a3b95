// For the intercept tests: a client of a spy's control socket, and the socket a spy made in a sessions directory.
import { existsSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { vi } from 'vitest';
import { readControlLines } from '../../src/faults/control-lines.js';

/** The control socket a spy with --intercept made in `dir`, once it is there. */
export async function controlSocketIn(dir: string): Promise<string> {
  let found: string | undefined;
  await vi.waitFor(
    () => {
      found = existsSync(dir) ? readdirSync(dir).find((name) => name.endsWith('.sock')) : undefined;
      if (!found) throw new Error(`no control socket in ${dir} yet`);
    },
    { timeout: 30_000, interval: 25 },
  );
  return join(dir, found!);
}

export type ControlMessage = Record<string, unknown> & { type: string };

/** Connects to a control socket: every line it sends is kept; `next` waits for one that passes a test; `send` waits for its reply. */
export async function controlClient(path: string) {
  const socket = connect(path);
  const messages: ControlMessage[] = [];
  let read = 0;
  readControlLines(socket, (line) => {
    const message = JSON.parse(line) as ControlMessage;
    messages.push(message);
    // Frames held before the client came are in the hello: read as news too.
    if (message.type === 'hello') for (const frame of message.held as unknown[]) messages.push({ type: 'held', frame });
  });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  /** The next message (after those `next` returned before) that passes `test`. */
  const next = async (test: (message: ControlMessage) => boolean, what = 'a message'): Promise<ControlMessage> => {
    let found: ControlMessage | undefined;
    await vi.waitFor(
      () => {
        const at = messages.findIndex((message, index) => index >= read && test(message));
        if (at === -1) throw new Error(`no ${what} yet; the socket said: ${JSON.stringify(messages)}`);
        read = at + 1;
        found = messages[at];
      },
      { timeout: 30_000, interval: 25 },
    );
    return found!;
  };
  let ref = 0;
  const send = async (request: Record<string, unknown>): Promise<ControlMessage> => {
    const mine = ++ref;
    socket.write(`${JSON.stringify({ ...request, ref: mine })}\n`);
    let reply: ControlMessage | undefined;
    await vi.waitFor(
      () => {
        reply = messages.find((message) => message.type === 'reply' && message.ref === mine);
        if (!reply) throw new Error(`no reply to ${JSON.stringify(request)}`);
      },
      { timeout: 30_000, interval: 25 },
    );
    return reply!;
  };
  const held = (dir: 'c2s' | 's2c') =>
    next((message) => message.type === 'held' && (message.frame as { dir: string }).dir === dir, `held ${dir} frame`).then(
      (message) => message.frame as Record<string, unknown> & { hold: number; frame: string },
    );
  return { messages, next, send, held, close: () => void socket.destroy() };
}
