import { Agent, createServer, type Server } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { forwardExchange, type ExchangeObserver, type ExchangeStart } from './http/forward.js';
import { hostPort, type ListenAddress } from './http/target.js';

export type { ExchangeObserver, ExchangeStart, ExchangeFailure } from './http/forward.js';
export type { EndpointRewrite } from './http/endpoint-rewrite.js';

export interface HttpProxyOptions {
  target: URL;
  listen: ListenAddress;
  observe: (start: ExchangeStart) => ExchangeObserver;
}

export interface HttpProxy {
  /** The URL a client should use: the spy's origin with the target's path and query. */
  url: string;
  address: ListenAddress;
  /** Stops listening and ends every open exchange, streams included. */
  close(): Promise<void>;
}

/** Listens, or rejects with the listen error (EADDRINUSE, EACCES, EADDRNOTAVAIL ...). */
function listen(server: Server, address: ListenAddress): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * A transparent reverse proxy in front of one origin: every method, path, query, header and body
 * goes to the target and back as it came (Host aside), streamed both ways.
 */
export async function startHttpProxy(options: HttpProxyOptions): Promise<HttpProxy> {
  const { target } = options;
  const agentOptions = { keepAlive: true, maxSockets: Infinity };
  const agent = target.protocol === 'https:' ? new HttpsAgent(agentOptions) : new Agent(agentOptions);
  const sockets = new Set<Socket>();
  let stopping = false;
  const server = createServer({ noDelay: true, requestTimeout: 0 }, (req, res) => {
    forwardExchange(req, res, { target, agent, observe: options.observe, stopping: () => stopping });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // Tunnels would make the spy an open proxy and carry nothing it can read.
  server.on('connect', (_req, socket: Socket) => {
    socket.end('HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });
  const bound = await listen(server, options.listen);
  const address = { host: options.listen.host, port: bound.port };
  return {
    url: `http://${hostPort(address.host, address.port)}${target.pathname}${target.search}`,
    address,
    async close() {
      stopping = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      await closed;
      // Let the exchanges ended above report it before the caller goes on.
      await new Promise((resolve) => setTimeout(resolve, 10));
    },
  };
}
