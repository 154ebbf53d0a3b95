// The console's side of --intercept: it finds the control sockets spies make in the directories it
// watches, is told there what each spy holds, and sends it releases.
import { readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { basename, join } from 'node:path';
import { readControlLines } from '../faults/control-lines.js';
import type { HeldFrame } from '../faults/intercept-holds.js';
import type { ControlReply } from '../faults/intercept-socket.js';
import type { Action } from './console-actions.js';

/** How often the directories are looked at for new sockets: a held frame shows within this. */
const lookEveryMs = 200;

export interface InterceptLink {
  /** Sends a release to the spy behind `socket`; resolves with its reply (or why there was none). */
  request(socket: string, body: Record<string, unknown>): Promise<ControlReply>;
  stop(): void;
}

/** The spy in words: its client and server names when a client's config started it, else its command. */
function spyLabel(hello: Record<string, unknown>, socket: string): string {
  if (typeof hello.name === 'string') return `${typeof hello.client === 'string' ? `${hello.client}/` : ''}${hello.name}`;
  if (typeof hello.target === 'string') return hello.target;
  if (Array.isArray(hello.command))
    return hello.command
      .map(String)
      .map((part, index) => (index <= 1 ? basename(part) : part))
      .join(' ');
  return basename(socket);
}

export function linkIntercepts(dirs: readonly string[], send: (action: Action) => void): InterceptLink {
  const links = new Map<string, { socket: Socket; pending: Map<number, (reply: ControlReply) => void> }>();
  /** Sockets tried once and found dead (a spy that stopped hard leaves its file): not tried again. */
  const dead = new Set<string>();
  let ref = 0;

  function open(path: string) {
    const socket = connect(path);
    const pending = new Map<number, (reply: ControlReply) => void>();
    links.set(path, { socket, pending });
    let spy = basename(path);
    readControlLines(socket, (line) => {
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return;
      }
      if (message.type === 'hello') {
        spy = spyLabel(message, path);
        for (const frame of (message.held as HeldFrame[] | undefined) ?? []) send({ type: 'held', item: { socket: path, spy, frame } });
      } else if (message.type === 'held') send({ type: 'held', item: { socket: path, spy, frame: message.frame as HeldFrame } });
      else if (message.type === 'released') send({ type: 'released', socket: path, hold: Number(message.hold) });
      else if (message.type === 'reply' && typeof message.ref === 'number') {
        pending.get(message.ref)?.(message as unknown as ControlReply);
        pending.delete(message.ref);
      }
    });
    socket.on('error', () => dead.add(path));
    socket.on('close', () => {
      dead.add(path);
      links.delete(path);
      for (const resolve of pending.values()) resolve({ type: 'reply', ok: false, message: 'the spy is gone (its session ended)' });
      send({ type: 'spy-gone', socket: path });
    });
  }

  const look = () => {
    for (const dir of dirs) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        continue;
      }
      for (const name of names) {
        const path = join(dir, name);
        if (name.endsWith('.sock') && !links.has(path) && !dead.has(path)) open(path);
      }
    }
  };
  look();
  const timer = setInterval(look, lookEveryMs);

  return {
    request(path, body) {
      const link = links.get(path);
      if (!link) return Promise.resolve({ type: 'reply', ok: false, message: 'the spy is gone (its session ended)' });
      const mine = ++ref;
      return new Promise((resolve) => {
        link.pending.set(mine, resolve);
        link.socket.write(`${JSON.stringify({ ...body, ref: mine })}\n`);
      });
    },
    stop() {
      clearInterval(timer);
      for (const { socket } of links.values()) socket.destroy();
    },
  };
}
