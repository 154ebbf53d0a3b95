// The writing side of one HTTP response taken over by a rule that reshapes the answer: whoever writes
// it (the HTTP spy relaying the server, the mock answering) writes as ever, and the rule decides what
// the client gets and when. The spy's tap then records what was delivered, not what was written.
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { ExchangeTap } from '../wire/http/exchange-tap.js';
import { nowMs } from '../wire/framing/now.js';
import { createAnswerShaper, type AnswerAction, type AnswerBody, type AnswerShaper } from './answer-shaper.js';
import type { JsonRpcId } from '../protocol/jsonrpc.js';
import type { FaultRule } from './rule-types.js';

type Headers = OutgoingHttpHeaders | (string | string[])[] | undefined;

/** The content type a writeHead names (an object or Node's flat raw list), else the one set before. */
function contentTypeOf(res: ServerResponse, headers: Headers): string {
  if (Array.isArray(headers)) {
    for (let i = 0; i < headers.length; i += 2) if (String(headers[i]).toLowerCase() === 'content-type') return String(headers[i + 1]);
  } else if (headers) {
    for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === 'content-type') return String(value);
  }
  return String(res.getHeader('content-type') ?? '');
}

/** The head without Content-Length: a reshaped body has a length of its own (sent chunked). */
function withoutLength(headers: Headers): Headers {
  if (Array.isArray(headers))
    return headers.filter((_, i) =>
      i % 2 === 1 ? String(headers[i - 1]).toLowerCase() !== 'content-length' : String(headers[i]).toLowerCase() !== 'content-length',
    );
  if (!headers) return headers;
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-length'));
}

const bodyOf = (type: string): AnswerBody => (type.includes('text/event-stream') ? 'sse' : type.includes('json') ? 'json' : 'other');

/**
 * Reshapes the answer `res` carries to request `id` as the rule says. Returns what the spy's tap
 * of the exchange should be wrapped in: it then sees the delivered bytes, each frame with its mark.
 */
export function reshapeResponse(
  res: ServerResponse,
  rule: FaultRule & { action: AnswerAction },
  id: JsonRpcId,
  noted: (text: string) => void,
): (tap: ExchangeTap) => ExchangeTap {
  const writeHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => ServerResponse;
  const write = res.write.bind(res) as (chunk: Buffer) => boolean;
  const end = res.end.bind(res) as () => ServerResponse;
  let tap: ExchangeTap | undefined;
  let shaper: AnswerShaper | undefined;
  /** The tap was told how the answer ended (delivered whole, or cut): nothing more goes to it. */
  let told = false;
  const settle = () => {
    told = true;
    shaper?.stop();
  };

  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const last = rest.at(-1);
    const headers = typeof last === 'object' && last !== null ? (last as Headers) : undefined;
    const body = bodyOf(contentTypeOf(res, headers));
    if (body === 'other') noted(`its answer (HTTP ${status}) carried no frame: passed on unchanged`);
    else res.removeHeader('content-length');
    writeHead(status, ...(headers && body !== 'other' ? [...rest.slice(0, -1), withoutLength(headers)] : rest));
    shaper = createAnswerShaper(rule, id, body, {
      deliver(bytes, mark) {
        if (res.destroyed || told) return;
        write(bytes);
        tap?.responseChunk(bytes, nowMs(), mark);
      },
      finish() {
        if (told) return;
        settle();
        if (!res.destroyed) end();
        tap?.responseEnd();
      },
      cut(why) {
        if (told) return;
        settle();
        // The head and the events let through reach the client first; then the connection closes.
        res.flushHeaders();
        const socket = res.socket;
        if (socket) socket.end(() => socket.destroy());
        else res.destroy();
        // After the writer told the tap of the response's head, when the cut comes with it.
        queueMicrotask(() => tap?.failed({ stage: 'response', message: why }));
      },
    });
    shaper.start();
    return res;
  }) as ServerResponse['writeHead'];
  const take = (chunk: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    if (!res.headersSent) res.writeHead(res.statusCode);
    shaper!.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  };
  res.write = ((chunk: unknown) => {
    take(chunk);
    return true;
  }) as ServerResponse['write'];
  res.end = ((chunk?: unknown) => {
    take(chunk);
    if (!res.headersSent) res.writeHead(res.statusCode);
    shaper!.end();
    return res;
  }) as ServerResponse['end'];
  // The client left (or the spy closed): nothing more is delivered. The writer tells the tap why,
  // unless its own response had ended already (the rest was still being delivered): then it is said here.
  res.once('close', () => {
    shaper?.stop();
    process.nextTick(() => {
      if (told) return;
      settle();
      tap?.failed({ stage: 'client', message: 'the client closed the connection before the response ended' });
    });
  });

  return (real) => {
    tap = real;
    // The delivered bytes and the end are told from the outlet above; the writer's own are not.
    return {
      requestChunk: (chunk, timeMs) => real.requestChunk(chunk, timeMs),
      requestEnd: (timeMs) => real.requestEnd(timeMs),
      response: (status, headers, timeMs) => real.response(status, headers, timeMs),
      responseChunk: () => {},
      responseEnd: () => {},
      endpointRewritten: (rewrite) => real.endpointRewritten(rewrite),
      authRewritten: (rewrite) => real.authRewritten(rewrite),
      failed: (failure, timeMs) => {
        if (told) return;
        settle();
        real.failed(failure, timeMs);
      },
    };
  };
}
