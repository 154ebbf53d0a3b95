// Raw TCP clients that dawdle on purpose (slowloris and friends), to see what a server does with them.
import { connect, type Socket } from 'node:net';

export interface SlowConnection {
  socket: Socket;
  /** Everything the server sent so far, as latin1 text. */
  received(): string;
  /** Resolves once the connection is closed, with the ms it stayed open. */
  closed: Promise<number>;
}

/** Opens a connection and sends `bytes` (part of a request, or nothing); resolves once connected. */
export function openSlow(port: number, bytes: string): Promise<SlowConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const opened = Date.now();
    let text = '';
    // Reading keeps the socket flowing: a socket nobody reads never sees the server's close.
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', () => {});
    const closed = new Promise<number>((done) => socket.once('close', () => done(Date.now() - opened)));
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      if (bytes !== '') socket.write(bytes);
      resolve({ socket, received: () => text, closed });
    });
  });
}

/** Sends `body` in `pieces` parts, `everyMs` apart, unless the connection closes first. */
export async function trickle(connection: SlowConnection, body: string, pieces: number, everyMs: number): Promise<void> {
  const size = Math.ceil(body.length / pieces);
  for (let at = 0; at < body.length; at += size) {
    await new Promise((resolve) => setTimeout(resolve, everyMs));
    if (connection.socket.destroyed) return;
    connection.socket.write(body.slice(at, at + size));
  }
}

/** A request head as a client writes it, with Content-Length when there is a body. */
export function requestHead(method: string, path: string, headers: Record<string, string | number> = {}): string {
  const lines = Object.entries({ host: '127.0.0.1', ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join('')}\r\n`;
}

/** The status line of each response in `text`, in order. */
export function statusLines(text: string): string[] {
  return [...text.matchAll(/^HTTP\/1\.1 \d{3}[^\r\n]*/gm)].map((match) => match[0]);
}

/** Waits for every connection to close; rejects after `ms` saying how many are still open. */
export async function allClosed(connections: SlowConnection[], ms: number): Promise<number[]> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${connections.filter((c) => !c.socket.destroyed).length} of ${connections.length} connections still open after ${ms}ms`)),
      ms,
    );
  });
  try {
    return await Promise.race([Promise.all(connections.map((connection) => connection.closed)), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
