import type { HttpEntry } from '../record/schema.js';

/** One message of an entry, in the form browsers write WebSocket messages (`time` in epoch seconds). */
export interface HarMessage {
  type: 'send' | 'receive';
  time: number;
  opcode: 1;
  data: string;
  /** The frame's place in the record: frames of one millisecond keep their order through `import`. */
  _seq?: number;
}

/** An exchange being gathered from the record. */
export interface HarExchange {
  kind: 'stdio' | 'http';
  session: string;
  startMs: number;
  endMs: number;
  method?: string;
  /** The POST body: the client's frame. */
  request?: string;
  /** The response: SSE events (priming ones have no data) or one JSON body. */
  stream: { fields?: Record<string, unknown>; data: string }[];
  messages: HarMessage[];
  head?: HttpEntry;
  headMs?: number;
  /** The MCP headers the client's frame carried: the request's headers when the record kept no head. */
  frameHeaders?: Record<string, string | string[]>;
  target?: string;
  command?: string[];
}

type Header = { name: string; value: string };
type HeaderRecord = Record<string, string | string[] | undefined>;

function headersOf(record: unknown): Header[] {
  if (typeof record !== 'object' || record === null) return [];
  return Object.entries(record as HeaderRecord).flatMap(([name, value]) =>
    value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((item) => ({ name, value: String(item) })),
  );
}

const headerOf = (headers: Header[], name: string) => headers.find((header) => header.name.toLowerCase() === name)?.value;

/** SSE text as the server sent it: each event's fields, its data line by line, a blank line. */
function sseText(stream: HarExchange['stream']): string {
  return stream
    .map(({ fields, data }) => {
      const lines: string[] = [];
      if (fields?.event !== undefined) lines.push(`event: ${String(fields.event)}`);
      if (fields?.id !== undefined) lines.push(`id: ${String(fields.id)}`);
      if (fields?.retry !== undefined) lines.push(`retry: ${String(fields.retry)}`);
      lines.push(...data.split('\n').map((line) => `data: ${line}`));
      return `${lines.join('\n')}\n\n`;
    })
    .join('');
}

function urlOf(exchange: HarExchange): string {
  if (exchange.kind === 'stdio') return `stdio://localhost/${encodeURIComponent((exchange.command ?? [exchange.session]).join(' '))}`;
  const base = exchange.target ?? 'http://localhost/';
  const path = typeof exchange.head?.path === 'string' ? exchange.head.path : undefined;
  try {
    return path === undefined ? new URL(base).href : new URL(path, base).href;
  } catch {
    return 'http://localhost/';
  }
}

const nameValues = (url: string) => [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));

/** One HAR 1.2 entry of an exchange, with its frames as `_webSocketMessages` (stdio) or `_mcpFrames` (HTTP). */
export function harEntryOf(exchange: HarExchange) {
  const url = urlOf(exchange);
  const total = Math.max(0, exchange.endMs - exchange.startMs);
  const started = new Date(exchange.startMs).toISOString();
  if (exchange.kind === 'stdio') {
    return {
      startedDateTime: started,
      time: total,
      request: { method: 'GET', url, httpVersion: 'stdio', cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: -1 },
      response: {
        status: 101,
        statusText: 'Switching Protocols',
        httpVersion: 'stdio',
        cookies: [],
        headers: [],
        content: { size: 0, mimeType: 'x-unknown' },
        redirectURL: '',
        headersSize: -1,
        bodySize: -1,
      },
      cache: {},
      timings: { send: 0, wait: 0, receive: total },
      _resourceType: 'websocket',
      _mcpSession: exchange.session,
      _webSocketMessages: exchange.messages,
    };
  }
  const recorded = (exchange.head?.headers ?? {}) as { request?: unknown; response?: unknown };
  const requestHeaders = headersOf(recorded.request ?? exchange.frameHeaders);
  const responseHeaders = headersOf(recorded.response);
  const received = exchange.stream;
  const sse =
    (headerOf(responseHeaders, 'content-type') ?? '').includes('text/event-stream') ||
    received.some((event) => event.fields !== undefined) ||
    received.length > 1;
  const text = sse ? sseText(received) : (received[0]?.data ?? '');
  const status = typeof exchange.head?.status === 'number' ? exchange.head.status : received.length > 0 ? 200 : 202;
  const mimeType = headerOf(responseHeaders, 'content-type') ?? (sse ? 'text/event-stream' : received.length > 0 ? 'application/json' : 'x-unknown');
  const wait = Math.max(0, (exchange.headMs ?? exchange.endMs) - exchange.startMs);
  const request: Record<string, unknown> = {
    method: exchange.method ?? 'POST',
    url,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: requestHeaders,
    queryString: nameValues(url),
    headersSize: -1,
    bodySize: exchange.request === undefined ? 0 : Buffer.byteLength(exchange.request),
  };
  if (exchange.request !== undefined)
    request.postData = { mimeType: headerOf(requestHeaders, 'content-type') ?? 'application/json', params: [], text: exchange.request };
  return {
    startedDateTime: started,
    time: total,
    request,
    response: {
      status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: responseHeaders,
      content: { size: Buffer.byteLength(text), mimeType, text },
      redirectURL: headerOf(responseHeaders, 'location') ?? '',
      headersSize: -1,
      bodySize: Buffer.byteLength(text),
    },
    cache: {},
    timings: { send: 0, wait, receive: Math.max(0, total - wait) },
    _mcpSession: exchange.session,
    _mcpFrames: exchange.messages,
  };
}
