// --intercept on the HTTP spy: the body of each POST (what the client sends: its requests, its
// notifications, its answers to the server) is read whole and held when the filter matches it.
// Exchanges are independent: holding one holds no other. What the server sends is not held.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExchangeMarks, ExchangeTap, ExchangeStart } from '../wire/http/exchange-tap.js';
import { interceptEntry, newRequestsSeen } from './intercept-frame.js';
import type { Holds } from './intercept-holds.js';

type Forward = (held?: Buffer, marks?: ExchangeMarks) => void;

export function httpInterceptHook(holds: Holds) {
  const { filter, test } = holds.options;
  // Answers of the server are never held here: the requests seen serve only their latency, so none is kept.
  const sent = newRequestsSeen();
  return (req: IncomingMessage, res: ServerResponse, forward: Forward, tapExchange: (start: ExchangeStart) => ExchangeTap): void => {
    if (req.method !== 'POST') return forward();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const text = body.toString('utf8');
      const session = req.headers['mcp-session-id'];
      const entry = interceptEntry(text, 'c2s', typeof session === 'string' ? session : undefined, sent);
      sent.c2s.clear();
      let matches = false;
      try {
        matches = test(entry);
      } catch {
        // A filter that cannot read a frame holds nothing: the traffic comes first.
      }
      if (!matches) return forward(body);
      const mark = { intercept: filter };
      /** The exchange as it went, when the spy answers it (or leaves it open) itself. */
      const observed = () => {
        const observer = tapExchange({
          method: 'POST',
          path: req.url ?? '/',
          headers: req.headers,
          marks: { request: mark, response: { ...mark, origin: 'spy' } },
        });
        observer.requestChunk(body);
        observer.requestEnd();
        return observer;
      };
      holds.hold(entry, text, (outcome) => {
        if (res.writableEnded || req.socket.destroyed) return;
        if (outcome.action === 'forward') return forward(body, { request: mark });
        if (outcome.action === 'edit') return forward(Buffer.from(outcome.line), { request: { ...mark, origin: 'spy', original: outcome.original } });
        const observer = observed();
        if (outcome.action === 'error') {
          const headers = { 'content-type': 'application/json' };
          res.writeHead(200, headers);
          observer.response(200, headers);
          observer.responseChunk(Buffer.from(outcome.answer));
          res.end(outcome.answer);
          return observer.responseEnd();
        }
        // Dropped: a request is left unanswered until the client gives up; anything else is accepted and goes no further.
        if (entry.kind === 'request')
          return void res.on('close', () => observer.failed({ stage: 'client', message: `dropped at the intercept (${filter}); the client gave up` }));
        res.writeHead(202);
        observer.response(202, {});
        res.end();
        observer.responseEnd();
      });
    });
  };
}
