import { createParser } from 'eventsource-parser';
import { cutDeep } from '../protocol/depth.js';
import { entryOfObserved } from '../record/record-line.js';
import { createSpill } from './har-spill.js';
import { RECORD_VERSION, type HttpEntry, type RecordEntry } from '../record/schema.js';
import { createCorrelator, type Correlator } from '../wire/correlate/correlate.js';
import type { Direction } from '../wire/classify/kinds.js';
import { maskUrl } from '../wire/http/http-bodies.js';
import { observeFrame, type ObserveContext } from '../wire/observe/observe-frame.js';
import { createSecrets, redactMessage } from '../wire/redact/redact-frame.js';
import { createHeaderRedactor, type HeaderRedactor } from '../wire/http/redact-headers.js';

/** A frame or an exchange read from a HAR, before it is put in order. */
type Item =
  | { type: 'frame'; session: string; dir: Direction; timeMs: number; order: number; text: string; transport: 'stdio' | 'http'; exchange?: number }
  | { type: 'http'; session: string; timeMs: number; order: number; fields: Partial<HttpEntry> };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
/** The largest time a Date holds (ms from the epoch, either way): a HAR may say anything. */
const maxTimeMs = 8.64e15;
/** A time the record can write, or the fallback. */
const timeOr = (ms: number, fallback: number) => (Number.isFinite(ms) && Math.abs(ms) <= maxTimeMs ? ms : fallback);

/** JSON-RPC 2.0 text: a message or a batch of them. */
function isJsonRpc(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return (Array.isArray(value) ? value : [value]).every((item) => isObject(item) && item.jsonrpc === '2.0') && (!Array.isArray(value) || value.length > 0);
  } catch {
    return false;
  }
}

/** `[{name, value}]` as the record keeps headers: name to value (several values as a list). */
function headerRecord(headers: unknown): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const header of list(headers)) {
    if (!isObject(header) || str(header.name) === undefined) continue;
    const name = str(header.name)!.toLowerCase();
    const value = String(header.value ?? '');
    const had = Object.hasOwn(out, name) ? out[name] : undefined;
    Object.defineProperty(out, name, {
      value: had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function bodyText(content: unknown): string | undefined {
  if (!isObject(content)) return undefined;
  const text = str(content.text);
  if (text === undefined) return undefined;
  return content.encoding === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text;
}

function sseData(text: string): string[] {
  const data: string[] = [];
  const parser = createParser({ onEvent: (event) => (event.data !== '' ? data.push(event.data) : undefined) });
  parser.feed(text.endsWith('\n\n') ? text : `${text}\n\n`);
  return data;
}

/** How an import masks what the spies mask by default: secret headers, a secret in a URL's query. */
interface Masks {
  headers: HeaderRedactor;
  path: (path: string) => string;
}

/** The items of one HAR entry: its messages when it lists them, else its JSON-RPC bodies, else an `http` event. */
function itemsOf(entry: Json, index: number, masks: Masks): Item[] {
  const request = isObject(entry.request) ? entry.request : {};
  const response = isObject(entry.response) ? entry.response : {};
  const url = str(request.url) ?? '';
  const requestHeaders = headerRecord(request.headers);
  const responseHeaders = headerRecord(response.headers);
  // Learnt now, whether or not the entry becomes an event: a body may echo a header's key, as the spy masks it.
  masks.headers.learn(requestHeaders);
  masks.headers.learn(responseHeaders);
  const sessionHeader = requestHeaders['mcp-session-id'] ?? responseHeaders['mcp-session-id'];
  const started = timeOr(Date.parse(str(entry.startedDateTime) ?? ''), 0);
  const order = index * 1_000_000;
  // An HTTP entry is one exchange: its frames and event say which, as the spy's own record does.
  const exchange = index + 1;
  // An empty list says nothing: the entry is then read as any exchange (an http event, at least).
  const listed = (value: unknown) => (Array.isArray(value) && value.length > 0 ? value : undefined);
  const messages = listed(entry._webSocketMessages) ?? listed(entry._mcpFrames);
  const session =
    str(entry._mcpSession) ??
    (typeof sessionHeader === 'string' ? sessionHeader : `${messages === entry._webSocketMessages && messages ? 'ws' : 'x'}-${index + 1}`);
  const mime = isObject(response.content) ? (str(response.content.mimeType) ?? '') : '';
  /** The exchange as an `http` event: its head, when the frames do not say it all. */
  const head = (itemOrder: number): Item => {
    const status = typeof response.status === 'number' ? response.status : 0;
    const headers = { request: masks.headers.copy(requestHeaders), response: masks.headers.copy(responseHeaders) };
    const fields: Partial<HttpEntry> = {
      httpMethod: str(request.method) ?? 'GET',
      path: masks.path(pathOf(url)),
      status,
      headers,
      summary: mime || 'no body',
      exchange,
    };
    return { type: 'http', session, timeMs: started, order: itemOrder, fields };
  };
  const transport = url.startsWith('stdio:') ? 'stdio' : 'http';
  const frames = (messages ?? []).flatMap((message, k): Item[] => {
    if (!isObject(message) || str(message.data) === undefined || (message.opcode !== undefined && message.opcode !== 1)) return [];
    const timeMs = typeof message.time === 'number' ? timeOr(Math.round(message.time * 1000), started) : started;
    const seq = typeof message._seq === 'number' ? message._seq : order + k;
    return [
      {
        type: 'frame',
        session,
        dir: message.type === 'send' ? 'c2s' : 's2c',
        timeMs,
        order: seq,
        text: str(message.data)!,
        transport,
        ...(transport === 'http' ? { exchange } : {}),
      },
    ];
  });
  // A list with no text frame in it (binary WebSocket messages, members that are no messages) says nothing either: the bodies are read.
  if (frames.length > 0) {
    // As the spy records: a POST answered 200 or 202 is its frames; a GET stream or another status is an event too.
    const plain = request.method === 'POST' && (response.status === 200 || response.status === 202);
    if (messages !== entry._mcpFrames || plain) return frames;
    // A loop, not Math.min(...orders): an entry may list 300,000 frames, past what a call's arguments hold.
    let first = Infinity;
    for (const item of frames) first = Math.min(first, item.order);
    frames.unshift(head(first - 0.5));
    return frames;
  }
  const items: Item[] = [];
  const posted = isObject(request.postData) ? str(request.postData.text) : undefined;
  const body = bodyText(response.content);
  // Down to the millisecond, as startedDateTime is cut: the end is then never later than the true end, so a
  // request the page sent once it had this answer (stamped within the same millisecond) stays after it.
  const ended = timeOr(started + (typeof entry.time === 'number' && entry.time > 0 ? Math.floor(entry.time) : 0), started);
  if (body !== undefined && mime.includes('text/event-stream')) {
    sseData(body).forEach((data, k) =>
      items.push({ type: 'frame', session, dir: 's2c', timeMs: ended, order: order + 1 + k, text: data, transport: 'http', exchange }),
    );
  } else if (body !== undefined && isJsonRpc(body))
    items.push({ type: 'frame', session, dir: 's2c', timeMs: ended, order: order + 1, text: body, transport: 'http', exchange });
  // A body the server answered in JSON-RPC was sent to MCP, JSON-RPC or not (a parse error answers garbage): a frame, as the spy records it.
  if (posted !== undefined && (isJsonRpc(posted) || items.length > 0))
    items.unshift({ type: 'frame', session, dir: 'c2s', timeMs: started, order, text: posted, transport: 'http', exchange });
  return items.length > 0 ? items : [head(order)];
}

/** The path and query of a URL; the text as written when it is no URL. */
function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

/** Why a parsed JSON value is not a HAR, or undefined. */
export function harProblem(value: unknown): string | undefined {
  if (!isObject(value) || !isObject(value.log)) return 'not a HAR file: no "log" object';
  if (!Array.isArray(value.log.entries)) return 'not a HAR file: "log.entries" is not a list';
  return undefined;
}

export interface HarImportOptions {
  /**
   * Whether what the spies mask by default is masked (README, "Secrets"): members with a secret's
   * name, the secret headers, OAuth secrets in a URL, and each of those values wherever it turns up
   * again. True unless `--no-default-redact`: a HAR from a browser holds a user's keys in clear.
   */
  defaultRedact?: boolean;
}

/**
 * The items of a HAR, taken entry by entry as a streaming parser hands them over (the HAR is never
 * held whole); `entries` then runs them through the pipeline in the order of their times, one at a
 * time, so a caller may write each entry as it comes and keep none.
 */
export function createHarImport(options: HarImportOptions = {}) {
  const items = createSpill<Item>();
  let count = 0;
  const masking = options.defaultRedact !== false;
  const secrets = createSecrets();
  const masks: Masks = {
    headers: createHeaderRedactor([], masking, secrets.learn),
    path: (path) => (masking ? maskUrl(path, secrets.learn) : path),
  };
  // As a spy's recorder masks frames: by name, then any secret met before (a header's key echoed in a result).
  const masked: Pick<ObserveContext, 'redact' | 'scrub'> = masking
    ? { redact: (message, raw) => redactMessage(message, raw, [], secrets, true), scrub: (text) => (secrets.size > 0 ? secrets.scrub(text) : text) }
    : {};
  return {
    /** Takes the HAR's next entry (its place in `log.entries` is the order of those taken). */
    add(entry: unknown): void {
      const index = count++;
      // Cut once, as every value read from a file is: a header's value nested 50,000 deep is text read by recursion.
      const kept = cutDeep(entry);
      if (isObject(kept)) for (const item of itemsOf(kept, index, masks)) items.push(item);
    },
    /** The record entries, frames through the same pipeline as live traffic, in the order of their times. */
    *entries(): Generator<RecordEntry> {
      const correlators = new Map<string, Correlator>();
      let seq = 0;
      for (const item of items.sorted()) {
        const t = new Date(item.timeMs).toISOString();
        if (item.type === 'http') {
          yield { v: RECORD_VERSION, seq: ++seq, t, session: item.session, kind: 'http', ...item.fields } as RecordEntry;
          continue;
        }
        let correlator = correlators.get(item.session);
        if (!correlator) correlators.set(item.session, (correlator = createCorrelator()));
        const results = observeFrame(
          { bytes: Buffer.from(item.text, 'utf8') },
          { dir: item.dir, correlator, nextSeq: () => ++seq, timeMs: item.timeMs, transport: item.transport, ...masked },
        );
        for (const observed of results) {
          const entry = entryOfObserved({ v: RECORD_VERSION, seq: observed.seq, t, session: item.session }, observed, item.text);
          if (item.exchange !== undefined) entry.exchange = item.exchange;
          yield entry;
        }
      }
      items.close();
    },
    /** Lets go of the items held (also when the HAR could not be read to its end). */
    close: () => items.close(),
  };
}
