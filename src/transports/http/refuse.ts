import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExchangeTap, ExchangeStart } from './forward.js';
import { pathOf } from './forward.js';
import { spyErrorBody } from './gateway-error.js';

/** The most of a refused request's body kept, for the id its answer echoes; the rest is read and dropped. */
const keep = 65536;

/**
 * Answers a request the spy will not forward with 403 and a JSON-RPC error saying why (the code the
 * SDK's own DNS rebinding check uses), once the request is in; the server never hears of it.
 */
export function refuseExchange(req: IncomingMessage, res: ServerResponse, tapExchange: (start: ExchangeStart) => ExchangeTap, reason: string): void {
  const tap = tapExchange({ method: req.method ?? 'GET', path: pathOf(req.url), headers: req.headers });
  const head: Buffer[] = [];
  let length = 0;
  req.on('data', (chunk: Buffer) => {
    if (length < keep) head.push(chunk);
    length += chunk.length;
    tap.requestChunk(chunk);
  });
  req.on('end', () => {
    tap.requestEnd();
    const body = spyErrorBody(Buffer.concat(head), -32000, `Forbidden: mcp-spy ${reason}`);
    res.writeHead(403, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
    tap.failed({ stage: 'refused', message: reason, answered: { status: 403, body } });
  });
}
