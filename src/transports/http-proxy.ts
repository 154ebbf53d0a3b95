import { Agent, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { clientErrorAnswer, defaultClientTimeouts, requestTimeoutReason, serverTimeoutOptions, type ClientTimeouts } from './http/client-timeouts.js';
import { forwardExchange, type ExchangeMarks, type ExchangeTap, type ExchangeStart, type SpyClosed } from './http/forward.js';
import { hostPolicy, refusalOf, type HostPolicy } from './http/host-guard.js';
import { refuseExchange } from './http/refuse.js';
import { connectionCapacity } from './http/file-limit.js';
import { hostPort, type ListenAddress } from './http/target.js';

export type { ExchangeTap, ExchangeStart, ExchangeFailure, ExchangeMarks } from './http/forward.js';
export type { EndpointRewrite } from './http/endpoint-rewrite.js';
export type { AuthRewrite } from './http/auth-rewrite.js';
export type { ClientTimeouts } from './http/client-timeouts.js';

export interface HttpProxyOptions {
  target: URL;
  listen: ListenAddress;
  tapExchange: (start: ExchangeStart) => ExchangeTap;
  /** How long a client may take to send its request, or stay idle between requests (default: Node's). */
  timeouts?: ClientTimeouts;
  /** Host values accepted beyond the spy's own address (`host` for any port, or `host:port`). */
  allowHosts?: readonly string[];
  /** Origin values accepted beyond the loopback ones. */
  allowOrigins?: readonly string[];
  /**
   * Only with fault rules (--fault): sees each exchange first and forwards it (its body read whole)
   * or answers it itself. Without it the proxy forwards every exchange as it streams.
   */
  faults?: (
    req: IncomingMessage,
    res: ServerResponse,
    forward: (held?: Buffer, marks?: ExchangeMarks, wrap?: (tap: ExchangeTap) => ExchangeTap) => void,
    tapExchange: HttpProxyOptions['tapExchange'],
  ) => void;
  /** A connection the spy refused (too many for its limit of open files): who, and why. */
  refused?: (peer: string, why: string) => void;
  /** Settles once the files the spy keeps open beside its connections are open (its observer's): the limit is counted then. */
  settled?: Promise<unknown>;
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

/** The exchange a connection is carrying or carried last. */
type Exchange = { req: IncomingMessage; res: ServerResponse; closed?: SpyClosed };

/**
 * Closes a connection whose client erred (a timeout, a malformed head) as Node would: an answer
 * when no response is under way on it, then the end. An exchange caught in it learns why.
 */
function closeOnClientError(error: NodeJS.ErrnoException, socket: Socket, exchange: Exchange | undefined, timeouts: ClientTimeouts) {
  const answer = clientErrorAnswer(error.code);
  const underway = exchange?.res.headersSent && !exchange.res.writableEnded;
  const answered = socket.writable && error.code !== 'ECONNRESET' && !underway;
  if (exchange && !exchange.req.complete && error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    exchange.closed = { message: requestTimeoutReason(timeouts), answered: answered ? { status: answer.status, body: Buffer.alloc(0) } : undefined };
  }
  if (answered) socket.write(answer.bytes);
  socket.destroy();
}

/**
 * A transparent reverse proxy in front of one origin: every method, path, query, header and body
 * goes to the target and back as it came (Host aside), streamed both ways.
 */
export async function startHttpProxy(options: HttpProxyOptions): Promise<HttpProxy> {
  const { target } = options;
  const timeouts = options.timeouts ?? defaultClientTimeouts;
  // No timeout on the server's side: an SSE response may be silent for as long as the server likes.
  const agentOptions = { keepAlive: true, maxSockets: Infinity };
  const agent = target.protocol === 'https:' ? new HttpsAgent(agentOptions) : new Agent(agentOptions);
  const sockets = new Set<Socket>();
  const exchanges = new WeakMap<Socket, Exchange>();
  let stopping = false;
  const stopped: SpyClosed = { message: 'the spy stopped before the response ended' };
  // Metadata documents at paths of the server's choosing, learnt from its challenges.
  const auth = { metadataPaths: new Set<string>() };
  // Known once the port is: until then no request can arrive.
  let policy: HostPolicy | undefined;
  const server = createServer({ noDelay: true, ...serverTimeoutOptions(timeouts) }, (req, res) => {
    const exchange: Exchange = { req, res };
    exchanges.set(req.socket, exchange);
    const refusal = refusalOf(req.headers, policy!);
    if (refusal !== undefined) return refuseExchange(req, res, options.tapExchange, refusal);
    const forwarding = { target, agent, tapExchange: options.tapExchange, closedBySpy: () => (stopping ? stopped : exchange.closed), auth };
    // A rule that reshapes the answer watches the exchange's observer too (`wrap`): it records what was delivered.
    if (options.faults)
      return options.faults(
        req,
        res,
        (held, marks, wrap) =>
          forwardExchange(req, res, wrap ? { ...forwarding, tapExchange: (start) => wrap(options.tapExchange(start)) } : forwarding, held, marks),
        options.tapExchange,
      );
    forwardExchange(req, res, forwarding);
  });
  // Node keeps only the first 2000 header lines of a request by default (its parser, ~1,024 of them
  // in practice) and drops the rest without a word: the spy passes on every header it read, as the
  // server would get them direct. The head's size stays bounded (maxHeaderSize, 16 KiB by default).
  server.maxHeadersCount = 0;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => closeOnClientError(error, socket, exchanges.get(socket), timeouts));
  // Tunnels would make the spy an open proxy and carry nothing it can read.
  server.on('connect', (_req, socket: Socket) => {
    socket.end('HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });
  const bound = await listen(server, options.listen);
  // Past its limit of open files the system resets new connections without a word (libuv closes
  // them as it accepts them): the spy stops short of it, so that it can tell, and forwards the rest.
  let tooMany = '';
  void (options.settled ?? Promise.resolve()).then(() => {
    const capacity = connectionCapacity();
    if (!capacity) return;
    server.maxConnections = capacity.connections;
    tooMany = `more than ${capacity.connections} connections at once under the limit of ${capacity.limit} open files (ulimit -n)`;
  });
  server.on('drop', (peer?: { remoteAddress?: string; remotePort?: number }) =>
    options.refused?.(hostPort(peer?.remoteAddress ?? '?', peer?.remotePort ?? 0), tooMany),
  );
  server.on('error', (error: NodeJS.ErrnoException) => options.refused?.('?', `the system refused to accept a connection (${error.code ?? error.message})`));
  const address = { host: options.listen.host, port: bound.port };
  policy = hostPolicy(address, options.allowHosts, options.allowOrigins);
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
