// The control socket of --intercept: a Unix socket only its user can open (0600, in the sessions
// directory, named after the run's record), over which the console is told what is held and lets it go.
// Lines of JSON both ways: the spy says hello, then news; a client sends releases and gets a reply each.
import { chmodSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { readControlLines } from './control-lines.js';
import type { Holds, HoldNews, Release } from './intercept-holds.js';

/** What a client sends: a release of one held frame, `ref` echoed in the reply. */
export type ControlRequest = Release & { hold: number; ref?: unknown };

export type ControlReply = { type: 'reply'; ref?: unknown; ok: true; text: string } | { type: 'reply'; ref?: unknown; ok: false; message: string };

const actions = new Set(['forward', 'edit', 'drop', 'error']);

/** A client's line read as a release, or what is wrong with it. */
export function readControlRequest(line: string): ControlRequest | { problem: string; ref?: unknown } {
  let request: unknown;
  try {
    request = JSON.parse(line);
  } catch {
    return { problem: 'not JSON: send one object a line, such as {"op":"forward","hold":1}' };
  }
  if (!request || typeof request !== 'object' || Array.isArray(request)) return { problem: 'expected an object such as {"op":"forward","hold":1}' };
  const { op, hold, frame, code, message, ref } = request as Record<string, unknown>;
  if (typeof op !== 'string' || !actions.has(op)) return { problem: 'op is one of forward, edit, drop, error', ref };
  if (!Number.isInteger(hold)) return { problem: 'hold is the number of a held frame', ref };
  if (op === 'edit' && typeof frame !== 'string') return { problem: 'edit needs frame: the frame to send, as text', ref };
  if (code !== undefined && !Number.isInteger(code)) return { problem: 'code is a whole number', ref };
  if (message !== undefined && typeof message !== 'string') return { problem: 'message is text', ref };
  const base = { hold: hold as number, ...(ref !== undefined ? { ref } : {}) };
  if (op === 'edit') return { ...base, action: 'edit', frame: frame as string };
  if (op === 'error')
    return {
      ...base,
      action: 'error',
      ...(code !== undefined ? { code: code as number } : {}),
      ...(message !== undefined ? { message: message as string } : {}),
    };
  return { ...base, action: op as 'forward' | 'drop' };
}

function serve(socket: Socket, holds: Holds, hello: Record<string, unknown>) {
  const send = (value: unknown) => {
    if (socket.writable) socket.write(`${JSON.stringify(value)}\n`);
  };
  socket.on('error', () => {});
  send({ type: 'hello', ...hello, held: holds.held() });
  const stop = holds.listen((news: HoldNews) => send(news));
  socket.on('close', stop);
  readControlLines(socket, answer);
  function answer(line: string) {
    const request = readControlRequest(line);
    const ref = 'ref' in request && request.ref !== undefined ? { ref: request.ref } : {};
    if ('problem' in request) return send({ type: 'reply', ...ref, ok: false, message: request.problem } satisfies ControlReply);
    const { hold, ref: _ref, ...release } = request;
    const result = holds.release(hold, release as Release);
    send({ type: 'reply', ...ref, ...result } satisfies ControlReply);
  }
}

/**
 * Listens on `path` for the console, made 0600 as it is made (the umask is narrowed around the bind,
 * which is synchronous) and checked after. Resolves with the server, or says why it could not.
 */
export function openControlSocket(path: string, holds: Holds, hello: Record<string, unknown>): Promise<{ close: () => void } | { problem: string }> {
  return new Promise((resolve) => {
    const sockets = new Set<Socket>();
    const server: Server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      serve(socket, holds, hello);
    });
    // Consoles attached must not keep a finished spy running.
    const close = () => {
      server.close();
      for (const socket of sockets) socket.destroy();
    };
    server.once('error', (error: NodeJS.ErrnoException) => resolve({ problem: `cannot open the control socket ${path}: ${error.code ?? error.message}` }));
    const umask = process.umask(0o177);
    try {
      server.listen(path, () => {
        try {
          chmodSync(path, 0o600);
        } catch {
          // Made 0600 already by the umask; a file system that takes no modes has no others to keep out.
        }
        resolve({ close });
      });
    } finally {
      process.umask(umask);
    }
  });
}
