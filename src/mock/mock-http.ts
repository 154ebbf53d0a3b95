import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isObject, type JsonObject } from '../protocol/jsonrpc.js';
import { lookup } from '../protocol/own-table.js';
import { classifyMessage } from '../wire/classify/classify.js';
import type { MockChannel, MockEngine } from './mock-engine.js';
import type { HttpFaultHook } from '../faults/http-faults.js';
import { ignoreExchange } from '../wire/http/exchange-tap.js';
import { parseCut } from '../protocol/depth.js';

/** One HTTP session of the mock: its own engine (matches are used per session) and its standalone stream. */
interface MockHttpSession {
  engine: MockEngine;
  stream?: ServerResponse;
  queue: JsonObject[];
}

const sseEvent = (message: JsonObject) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;

function jsonError(res: ServerResponse, status: number, code: number, message: string) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

/** The reply to one POSTed request: plain JSON when the answer comes alone, SSE when messages precede it. */
function replyChannel(res: ServerResponse, requestId: unknown, headers: Record<string, string>): MockChannel {
  let streaming = false;
  return {
    send(message) {
      if (res.writableEnded) return;
      const final = message.id === requestId && !('method' in message);
      if (!streaming && final) {
        res.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(message));
        return;
      }
      if (!streaming) res.writeHead(200, { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      streaming = true;
      res.write(sseEvent(message));
      if (final) res.end();
    },
  };
}

function backgroundChannel(session: MockHttpSession): MockChannel {
  return {
    send(message) {
      if (session.stream && !session.stream.writableEnded) session.stream.write(sseEvent(message));
      else session.queue.push(message);
    },
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The mock over Streamable HTTP: any path, POST for messages, GET for the session's own stream,
 * DELETE to end a session. `initialize` opens a session (Mcp-Session-Id); 2026-07-28 requests share one.
 * `faults` (only with --fault): sees each exchange first, as in front of the HTTP spy, and hands it on
 * with its body read, or answers it itself; the mock records nothing, so no exchange is observed.
 */
export function createMockHttpServer(newEngine: () => MockEngine, warn: (line: string) => void, faults?: HttpFaultHook): Server {
  const sessions = new Map<string, MockHttpSession>();
  const shared: MockHttpSession = { engine: newEngine(), queue: [] };

  const sessionOf = (req: IncomingMessage, res: ServerResponse): MockHttpSession | undefined => {
    const id = req.headers['mcp-session-id'];
    if (typeof id !== 'string') return shared;
    const session = sessions.get(id);
    if (!session) jsonError(res, 404, -32001, 'Session not found');
    return session;
  };

  async function onPost(req: IncomingMessage, res: ServerResponse, held?: Buffer) {
    let message: unknown;
    try {
      message = parseCut(held ? held.toString('utf8') : await readBody(req)).value;
    } catch {
      jsonError(res, 400, -32700, 'Parse error');
      return;
    }
    const headers: Record<string, string> = {};
    let session: MockHttpSession | undefined;
    if (isObject(message) && message.method === 'initialize') {
      const id = randomUUID();
      sessions.set(id, (session = { engine: newEngine(), queue: [] }));
      headers['mcp-session-id'] = id;
    } else session = sessionOf(req, res);
    if (!session || !isObject(message)) {
      if (!res.headersSent) jsonError(res, 400, -32600, 'Invalid Request');
      return;
    }
    const isRequest = classifyMessage(message).kind === 'request';
    if (!isRequest) res.writeHead(202).end();
    const reply = isRequest ? replyChannel(res, message.id, headers) : backgroundChannel(session);
    const verdict = await session.engine.receive(message, reply, backgroundChannel(session));
    if (verdict === 'close') {
      warn(`mcp-spy mock: no recorded answer for ${String(message.method)}; closing the connection (--on-miss close)`);
      req.socket.destroy();
    } else if (isRequest && !res.writableEnded) res.end();
  }

  function onGet(req: IncomingMessage, res: ServerResponse) {
    if (typeof req.headers['mcp-session-id'] !== 'string') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const session = sessionOf(req, res);
    if (!session) return;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    session.stream = res;
    for (const message of session.queue.splice(0)) res.write(sseEvent(message));
    res.on('close', () => {
      if (session.stream === res) delete session.stream;
    });
  }

  function onDelete(req: IncomingMessage, res: ServerResponse) {
    const id = req.headers['mcp-session-id'];
    const session = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!session) {
      res.writeHead(typeof id === 'string' ? 404 : 405).end();
      return;
    }
    session.stream?.end();
    session.engine.end();
    sessions.delete(id as string);
    res.writeHead(200).end();
  }

  const routes: Record<string, (req: IncomingMessage, res: ServerResponse, held?: Buffer) => void | Promise<void>> = {
    POST: onPost,
    GET: onGet,
    DELETE: onDelete,
  };
  /** One exchange; `held`: its body, already read by a fault rule's hook. */
  const handle = (req: IncomingMessage, res: ServerResponse, held?: Buffer) => {
    const route = lookup(routes, req.method);
    if (!route) {
      res.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
      return;
    }
    Promise.resolve(route(req, res, held)).catch((error: unknown) => {
      warn(`mcp-spy mock: ${(error as Error).message}`);
      if (!res.headersSent) jsonError(res, 500, -32603, 'Internal error');
      else res.end();
    });
  };
  return createServer(
    faults
      ? (req, res) =>
          faults(
            req,
            res,
            (held) => handle(req, res, held),
            () => ignoreExchange,
          )
      : handle,
  );
}

/** Listens on host:port; resolves with the endpoint URL once bound. */
export async function listenMock(server: Server, host: string, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${shown}:${address.port}/mcp`;
}
