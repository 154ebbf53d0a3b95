import { frameText, isFrameEntry } from '../record/frame-message.js';
import { entryTime, fieldOf } from '../record/entry-fields.js';
import type { FrameEntry, RecordEntry } from '../record/schema.js';
import { harEntryOf, type HarExchange, type HarMessage } from './har-entry.js';

/** A HAR 1.2 log, as browsers, mitmproxy and `export har` write it. */
export interface Har {
  log: { version: '1.2'; creator: { name: string; version: string }; entries: unknown[] };
}

// HAR needs a date on every entry: an untimed one (a plain capture) is put at the epoch.
const timeOf = (entry: RecordEntry) => entryTime(entry) ?? 0;

function messageOf(entry: FrameEntry, data: string): HarMessage {
  return { type: entry.dir === 'c2s' ? 'send' : 'receive', time: timeOf(entry) / 1000, opcode: 1, data, _seq: entry.seq };
}

/** An entry of a numbered exchange: its head, a priming event, the client's frame or one of the server's. */
function addToExchange(exchange: HarExchange, entry: RecordEntry, t: number): void {
  exchange.endMs = Math.max(exchange.endMs, t);
  if (entry.kind === 'http') {
    if (entry.status !== undefined && entry.headers !== undefined && !exchange.head) {
      exchange.head = entry;
      exchange.headMs = t;
      exchange.method = String(entry.httpMethod);
    } else if (entry.status === undefined && entry.sse !== undefined) exchange.stream.push({ fields: entry.sse as Record<string, unknown>, data: '' });
    exchange.method ??= entry.httpMethod;
    return;
  }
  if (!isFrameEntry(entry)) return;
  const text = frameText(entry);
  if (text === undefined || (entry.batch && entry.batch.index > 0)) return;
  if (entry.dir === 'c2s') {
    exchange.method ??= 'POST';
    exchange.request = text;
    if (entry.headers) exchange.frameHeaders = entry.headers as Record<string, string | string[]>;
  } else exchange.stream.push({ fields: entry.sse as Record<string, unknown> | undefined, data: text });
  exchange.messages.push(messageOf(entry, text));
}

/**
 * A record as HAR 1.2. HTTP traffic becomes one entry per exchange: a client frame is the body of a
 * POST; the server's frames go to the exchange the record names (`exchange`; in older records, the
 * exchange of the request they answer, or the latest of their session); the `http` events give the heads (headers as recorded, so after redaction), the
 * status and the other exchanges. A stdio session becomes one entry whose frames are its messages,
 * in the form browsers use for WebSocket messages. Every frame is also listed with its time on its
 * entry, so that `import` gives back the same frames in the same order.
 */
export async function recordToHar(entries: AsyncIterable<{ entry: RecordEntry }>, spyVersion: string): Promise<Har> {
  const exchanges: HarExchange[] = [];
  const stdio = new Map<string, HarExchange>();
  const bySeq = new Map<number, HarExchange>();
  const waitingHead = new Map<string, HarExchange>();
  const latest = new Map<string, HarExchange>();
  const numbered = new Map<string, HarExchange>();
  let target: string | undefined;
  let transport: 'stdio' | 'http' = 'stdio';
  /** Spy runs appended to one file number their exchanges from 1 each. */
  let run = 0;

  const open = (session: string, startMs: number, kind: HarExchange['kind'], command?: string[]): HarExchange => {
    const exchange: HarExchange = { kind, session, startMs, endMs: startMs, messages: [], stream: [], target, command };
    exchanges.push(exchange);
    return exchange;
  };

  for await (const { entry } of entries) {
    if (entry.kind === 'http' && typeof entry.target === 'string') target = entry.target;
    if ((entry.kind === 'spawn' || entry.kind === 'http') && entry.transport !== undefined) {
      transport = entry.transport;
      run++;
    }
    const session = entry.session;
    if (session === undefined) continue;
    const t = timeOf(entry);
    // The record names each HTTP entry's exchange: the entry goes there, nothing guessed.
    const exchangeNo = fieldOf(entry, 'exchange');
    if (exchangeNo !== undefined) {
      const key = `${run}\u0000${exchangeNo}`;
      let exchange = numbered.get(key);
      if (!exchange) numbered.set(key, (exchange = open(session, t, 'http')));
      addToExchange(exchange, entry, t);
      continue;
    }
    // Older records do not: an entry goes to the exchange it most likely rode on.
    if (entry.kind === 'spawn' && transport === 'stdio') {
      stdio.set(session, open(session, t, 'stdio', entry.command));
      continue;
    }
    if (entry.kind === 'http' && entry.httpMethod !== undefined) {
      const head = entry.status !== undefined && entry.headers !== undefined;
      const pending = waitingHead.get(session);
      let exchange: HarExchange | undefined;
      if (head && entry.httpMethod === 'POST' && pending) {
        exchange = pending;
        waitingHead.delete(session);
      } else if (head && !(entry.reason !== undefined && latest.get(session)?.method === entry.httpMethod && latest.get(session)?.head)) {
        exchange = open(session, t, 'http');
      } else exchange = latest.get(session);
      if (!exchange) continue;
      exchange.endMs = Math.max(exchange.endMs, t);
      if (head && !exchange.head) {
        exchange.head = entry;
        exchange.headMs = t;
        exchange.method = String(entry.httpMethod);
      }
      if (!head && entry.sse !== undefined) exchange.stream.push({ fields: entry.sse as Record<string, unknown>, data: '' });
      latest.set(session, exchange);
      continue;
    }
    if (!isFrameEntry(entry)) continue;
    const text = frameText(entry);
    if (text === undefined || (entry.batch && entry.batch.index > 0)) continue;
    let exchange: HarExchange | undefined;
    if (transport === 'stdio') {
      exchange = stdio.get(session) ?? open(session, t, 'stdio');
      stdio.set(session, exchange);
    } else if (entry.dir === 'c2s') {
      exchange = open(session, t, 'http');
      exchange.method = 'POST';
      exchange.request = text;
      waitingHead.set(session, exchange);
      latest.set(session, exchange);
    } else {
      exchange = (entry.related ? bySeq.get(entry.related.seq) : undefined) ?? latest.get(session) ?? open(session, t, 'http');
      exchange.stream.push({ fields: entry.sse as Record<string, unknown> | undefined, data: text });
    }
    bySeq.set(entry.seq, exchange);
    exchange.messages.push(messageOf(entry, text));
    exchange.endMs = Math.max(exchange.endMs, t);
  }
  return { log: { version: '1.2', creator: { name: 'mcp-spy', version: spyVersion }, entries: exchanges.map(harEntryOf) } };
}
