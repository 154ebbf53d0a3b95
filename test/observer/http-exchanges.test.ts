// The HTTP observer on this thread, fed the messages the forwarding side sends: what an exchange leaves behind.
import { STATUS_CODES } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { HttpMessage } from '../../src/observer/http/http-messages.js';
import { observeHttp } from '../../src/observer/http/observe-http.js';
import { createRecorder, type Recorder } from '../../src/observer/recorder.js';
import type { TestEntry } from '../helpers/spy.js';
import { createExchangeSessions, sessionLimits } from '../../src/wire/http/exchange-sessions.js';
import { observeExchange } from '../../src/wire/http/http-exchange.js';
import { createHeaderRedactor } from '../../src/wire/http/redact-headers.js';

const config = { redactHeaders: [], redact: true, mcpPath: '/mcp', maxFrame: 1 << 20, live: false, color: false };
const t = Date.UTC(2025, 0, 1);
const bytes = (value: unknown) => new Uint8Array(Buffer.from(JSON.stringify(value)));
const json = { 'content-type': 'application/json' };

/** A recorder whose entries are kept in memory, and which says which sessions it was asked to end. */
function recording() {
  const entries: TestEntry[] = [];
  const sink = {
    entry: (entry: TestEntry) => entries.push(entry),
    backlog: () => 0,
    caughtUp: () => Promise.resolve(),
    flush: () => Promise.resolve(),
    closeNow: () => {},
  };
  const recorder = createRecorder({ sinks: [() => sink], warn: () => {}, transport: 'http' });
  const ended: string[] = [];
  const records: Recorder = {
    ...recorder,
    endSession(session, timeMs) {
      ended.push(session);
      recorder.endSession(session, timeMs);
    },
  };
  return { records, recorder, entries, ended };
}

/** A stateless call as the forwarding side announces it, each end a message of its own. */
function call(x: number): HttpMessage[] {
  return [
    { type: 'open', x, method: 'POST', path: '/mcp', headers: { ...json, 'mcp-protocol-version': '2025-11-25' } },
    { type: 'request-chunk', x, t: t + x, data: bytes({ jsonrpc: '2.0', id: x, method: 'tools/call', params: { name: 'echo', _meta: { progressToken: x } } }) },
    { type: 'request-end', x, t: t + x },
    { type: 'response', x, t: t + x + 1, status: 200, headers: json },
    { type: 'response-chunk', x, t: t + x + 2, data: bytes({ jsonrpc: '2.0', id: x, result: { content: [] } }) },
    { type: 'response-end', x, t: t + x + 3 },
  ];
}

describe('the HTTP observer', () => {
  it('leaves nothing behind of a stateless exchange once it ends: its session, its correlator', () => {
    const { records, recorder, entries, ended } = recording();
    const observer = observeHttp(config, records, STATUS_CODES);
    const messages = call(1);
    for (const message of messages.slice(0, 4)) observer.handle(message);
    const correlator = recorder.correlator('x-1');
    expect(correlator.held()).toEqual({ pending: 1, progressTokens: 1, recentIds: 1 });
    for (const message of messages.slice(4)) observer.handle(message);
    expect(ended).toEqual(['x-1']);
    expect(correlator.held()).toMatchObject({ pending: 0, progressTokens: 0 });
    // The recorder dropped it: asking again makes a new one, which has seen nothing.
    expect(recorder.correlator('x-1')).not.toBe(correlator);
    // Its session is no longer open: the proxy stopping ends nothing more.
    observer.handle({ type: 'stopped' });
    expect(ended).toEqual(['x-1']);
    expect(entries.map((entry) => [entry.kind, entry.session])).toEqual([
      ['request', 'x-1'],
      ['response', 'x-1'],
    ]);
  });

  it('records the same when the ends ride on the messages before them', () => {
    const bare = (x: number): HttpMessage[] => [
      { type: 'open', x, method: 'GET', path: '/mcp', headers: { 'mcp-protocol-version': '2025-11-25' } },
      { type: 'request-end', x, t: t + x },
      { type: 'response', x, t: t + x + 1, status: 202, headers: {} },
      { type: 'response-end', x, t: t + x + 2 },
    ];
    const separate = [...call(1), ...bare(2), ...call(3)];
    const riding = [...call(1), ...bare(2), ...call(3)].flatMap((message, index, all): HttpMessage[] => {
      const next = all[index + 1];
      if (message.type === 'request-end' || message.type === 'response-end') return [];
      const ends = next?.type === 'request-end' || next?.type === 'response-end';
      return [ends ? ({ ...message, end: next.t } as HttpMessage) : message];
    });
    expect(riding.map((message) => message.type)).toEqual([
      'open',
      'request-chunk',
      'response',
      'response-chunk',
      'open',
      'response',
      'open',
      'request-chunk',
      'response',
      'response-chunk',
    ]);
    const recorded = (messages: HttpMessage[]) => {
      const { records, entries } = recording();
      const observer = observeHttp(config, records, STATUS_CODES);
      for (const message of messages) observer.handle(message);
      observer.end();
      return entries;
    };
    const entries = recorded(separate);
    expect(entries.map((entry) => [entry.kind, entry.session, entry.t])).toEqual([
      ['request', 'x-1', '2025-01-01T00:00:00.001Z'],
      ['response', 'x-1', '2025-01-01T00:00:00.004Z'],
      ['http', 'x-2', '2025-01-01T00:00:00.003Z'],
      ['request', 'x-3', '2025-01-01T00:00:00.003Z'],
      ['response', 'x-3', '2025-01-01T00:00:00.006Z'],
    ]);
    expect(recorded(riding)).toEqual(entries);
  });

  it('copies an exchange’s headers for the record only when an http event shows them, and learns their secrets at once', () => {
    const { records } = recording();
    const learnt: string[] = [];
    const redactor = createHeaderRedactor([], true, (secret) => learnt.push(secret));
    let copies = 0;
    const redact = { learn: redactor.learn, copy: (headers: Parameters<typeof redactor.copy>[0]) => (copies++, redactor.copy(headers)) };
    const deps = { records, sessions: createExchangeSessions(records), maxFrame: 1 << 20, redact, statusTexts: STATUS_CODES, mcpPath: '/mcp', learn: () => {} };
    const exchange = (status: number) => {
      const observed = observeExchange({ method: 'POST', path: '/mcp', headers: { ...json, authorization: 'Bearer tok-123456789' } }, deps);
      observed.requestChunk(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: status, method: 'ping' })));
      observed.requestEnd(t);
      observed.response(status, json, t);
      observed.responseChunk(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: status, result: {} })), t);
      observed.responseEnd(t);
    };
    exchange(200);
    expect([copies, learnt]).toEqual([0, ['Bearer tok-123456789', 'tok-123456789']]);
    exchange(500);
    expect(copies).toBe(2);
  });

  // An exchange whose rest outran the observer ends as a gap; its session was held busy for ever
  // (never expired, its state never freed) when the answer's head had already named it.
  it('lets go of the session of an exchange that outran it, as at its end', () => {
    const { records, entries, ended } = recording();
    // Sessions are idle from the spy's clock: the messages' times are of this moment.
    const now = Date.now();
    const observer = observeHttp(config, records, STATUS_CODES);
    const lostAfterHead = (x: number, headers: Record<string, string>): HttpMessage[] => [
      { type: 'open', x, method: 'POST', path: '/mcp', headers: { ...json, ...headers } },
      { type: 'request-chunk', x, t: now + x, data: bytes({ jsonrpc: '2.0', id: x, method: 'ping' }) },
      { type: 'request-end', x, t: now + x },
      { type: 'response', x, t: now + x, status: 200, headers: { ...json, ...headers } },
      { type: 'lost', x, t: now + x, request: 0, response: 1_000_000 },
    ];
    for (const message of lostAfterHead(1, { 'mcp-protocol-version': '2025-11-25' })) observer.handle(message);
    expect(ended).toEqual(['x-1']);
    for (const message of lostAfterHead(2, { 'mcp-session-id': 's-lost' })) observer.handle(message);
    // Past the sessions the spy keeps open, the least recently used goes first: the one that outran it.
    for (let x = 3; x < 3 + sessionLimits.open; x++)
      for (const message of [
        { type: 'open', x, method: 'POST', path: '/mcp', headers: json },
        { type: 'request-chunk', x, t: now + x, data: bytes({ jsonrpc: '2.0', id: x, method: 'initialize' }) },
        { type: 'response', x, t: now + x, status: 200, headers: { ...json, 'mcp-session-id': `s-${x}` } },
        { type: 'response-chunk', x, t: now + x, data: bytes({ jsonrpc: '2.0', id: x, result: {} }), end: now + x },
      ] as HttpMessage[])
        observer.handle(message);
    expect(ended).toEqual(['x-1', 's-lost']);
    expect(entries.find((entry) => entry.kind === 'note' && entry.session === 's-lost')).toMatchObject({ notes: ['session-expired'] });
  });
});
