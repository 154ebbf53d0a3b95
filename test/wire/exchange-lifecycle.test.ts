// One HTTP exchange's life on the observer's side, in the orders the forwarding side may send it:
// what the record gets, and when the exchange's session ends.
import { STATUS_CODES } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { HttpMessage } from '../../src/observer/http/http-messages.js';
import { observeHttp } from '../../src/observer/http/observe-http.js';
import { createRecorder, type Recorder } from '../../src/observer/recorder.js';
import type { RecordEntry } from '../../src/record/schema.js';
import type { TestEntry } from '../helpers/spy.js';

const config = { redactHeaders: [], redact: true, mcpPath: '/mcp', maxFrame: 1 << 20, live: false, color: false };
const t = Date.UTC(2025, 0, 1);
const data = (text: string) => new Uint8Array(Buffer.from(text));
const rpc = (value: unknown) => data(JSON.stringify(value));
const sse = (...events: string[]) => data(events.map((event) => `${event}\n\n`).join(''));
const json = { 'content-type': 'application/json' };
const stream = { 'content-type': 'text/event-stream' };
const call = (id: number) => rpc({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo' } });
const answer = (id: number) => ({ jsonrpc: '2.0', id, result: { content: [] } });

/** What each entry says, in short: its kind and session, and the fields this test is about. */
function brief(entry: RecordEntry) {
  const { kind, session, dir, id, status, reason, endpoint, notes, summary } = entry as TestEntry & { endpoint?: string; reason?: string; summary?: string };
  return Object.fromEntries(Object.entries({ kind, session, dir, id, status, reason, endpoint, notes, summary }).filter(([, value]) => value !== undefined));
}

/** The record of the messages, and the sessions ended, in order. */
function observe(messages: HttpMessage[], mcpPath = '/mcp') {
  const entries: RecordEntry[] = [];
  const sink = {
    entry: (entry: RecordEntry) => entries.push(entry),
    backlog: () => 0,
    caughtUp: () => Promise.resolve(),
    flush: () => Promise.resolve(),
    closeNow: () => {},
  };
  const recorder = createRecorder({ sinks: [() => sink], warn: () => {}, transport: 'http' });
  const ended: string[] = [];
  const records: Recorder = { ...recorder, endSession: (session, timeMs) => (ended.push(session), recorder.endSession(session, timeMs)) };
  const observer = observeHttp({ ...config, mcpPath }, records, STATUS_CODES);
  for (const message of messages) observer.handle(message);
  return { entries: entries.map(brief), ended };
}

describe('an HTTP exchange, from its first message to its last', () => {
  it('records a request that ends after its answer began when it ends, under the session the answer streams in', () => {
    const got = observe([
      { type: 'open', x: 1, method: 'POST', path: '/mcp', headers: { ...json, 'mcp-session-id': 's1' } },
      { type: 'request-chunk', x: 1, t: t + 1, data: call(1) },
      { type: 'response', x: 1, t: t + 2, status: 200, headers: stream },
      { type: 'request-end', x: 1, t: t + 3 },
      { type: 'response-chunk', x: 1, t: t + 4, data: sse(`data: ${JSON.stringify(answer(1))}`) },
      { type: 'response-end', x: 1, t: t + 5 },
    ]);
    expect(got).toEqual({
      entries: [
        { kind: 'request', session: 's1', dir: 'c2s', id: 1 },
        { kind: 'response', session: 's1', dir: 's2c', id: 1 },
      ],
      ended: [],
    });
  });

  it('holds a request whose session only the answer names, and records it under that session', () => {
    const got = observe([
      { type: 'open', x: 1, method: 'POST', path: '/mcp', headers: json },
      { type: 'request-chunk', x: 1, t: t + 1, data: rpc({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18' } }) },
      { type: 'request-end', x: 1, t: t + 2 },
      { type: 'response', x: 1, t: t + 3, status: 200, headers: { ...json, 'mcp-session-id': 'given' } },
      { type: 'response-chunk', x: 1, t: t + 4, data: rpc({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-06-18' } }) },
      { type: 'response-end', x: 1, t: t + 5 },
    ]);
    expect(got).toEqual({
      entries: [
        { kind: 'request', session: 'given', dir: 'c2s', id: 0 },
        { kind: 'http', session: 'given', status: 200, summary: 'OK; session given assigned' },
        { kind: 'response', session: 'given', dir: 's2c', id: 0 },
      ],
      ended: [],
    });
  });

  it('opens a legacy session with a stream’s endpoint event, and ends it with the stream', () => {
    const got = observe([
      { type: 'open', x: 1, method: 'GET', path: '/mcp', headers: {} },
      { type: 'request-end', x: 1, t: t + 1 },
      { type: 'response', x: 1, t: t + 2, status: 200, headers: stream },
      { type: 'response-chunk', x: 1, t: t + 3, data: sse('event: endpoint\ndata: /messages?sessionId=L1') },
      { type: 'open', x: 2, method: 'POST', path: '/messages?sessionId=L1', headers: json },
      { type: 'request-chunk', x: 2, t: t + 4, data: call(7) },
      { type: 'request-end', x: 2, t: t + 5 },
      { type: 'response', x: 2, t: t + 6, status: 202, headers: {} },
      { type: 'response-end', x: 2, t: t + 7 },
      { type: 'response-chunk', x: 1, t: t + 8, data: sse(`data: ${JSON.stringify(answer(7))}`) },
      { type: 'response-end', x: 1, t: t + 9 },
    ]);
    expect(got).toEqual({
      entries: [
        { kind: 'http', session: 'L1', status: 200, endpoint: '/messages?sessionId=L1', summary: 'OK; SSE stream; endpoint /messages?sessionId=L1' },
        { kind: 'request', session: 'L1', dir: 'c2s', id: 7 },
        { kind: 'http', session: 'L1', status: 202, summary: 'Accepted' },
        { kind: 'response', session: 'L1', dir: 's2c', id: 7 },
      ],
      ended: ['L1'],
    });
  });

  it('says a stream’s http event at its first event when its head named no session', () => {
    const got = observe([
      { type: 'open', x: 1, method: 'GET', path: '/mcp', headers: {} },
      { type: 'request-end', x: 1, t: t + 1 },
      { type: 'response', x: 1, t: t + 2, status: 200, headers: stream },
      { type: 'response-chunk', x: 1, t: t + 3, data: sse(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: {} })}`) },
      { type: 'response-end', x: 1, t: t + 4 },
      { type: 'open', x: 2, method: 'GET', path: '/mcp', headers: {} },
      { type: 'request-end', x: 2, t: t + 5 },
      { type: 'response', x: 2, t: t + 6, status: 200, headers: stream },
      { type: 'response-end', x: 2, t: t + 7 },
    ]);
    expect(got).toEqual({
      entries: [
        { kind: 'http', session: 'x-1', status: 200, summary: 'OK; SSE stream' },
        { kind: 'notification', session: 'x-1', dir: 's2c' },
        { kind: 'http', session: 'x-2', status: 200, summary: 'OK; SSE stream' },
      ],
      ended: ['x-1', 'x-2'],
    });
  });

  it('says the http event again for an endpoint event and for a failure, on a stream that said it', () => {
    const got = observe([
      { type: 'open', x: 1, method: 'GET', path: '/mcp', headers: { 'mcp-session-id': 's3' } },
      { type: 'request-end', x: 1, t: t + 1 },
      { type: 'response', x: 1, t: t + 2, status: 200, headers: stream },
      { type: 'response-chunk', x: 1, t: t + 3, data: sse('event: endpoint\ndata: /elsewhere') },
      { type: 'response-chunk', x: 1, t: t + 4, data: sse(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: {} })}`) },
      { type: 'failed', x: 1, t: t + 5, failure: { stage: 'response', message: 'the server closed the connection before the response ended' } },
    ]);
    expect(got).toEqual({
      entries: [
        { kind: 'http', session: 's3', status: 200, summary: 'OK; SSE stream' },
        { kind: 'http', session: 's3', status: 200, endpoint: '/elsewhere', summary: 'OK; SSE stream; endpoint /elsewhere' },
        { kind: 'notification', session: 's3', dir: 's2c' },
        {
          kind: 'http',
          session: 's3',
          status: 200,
          reason: 'the server closed the connection before the response ended',
          summary: 'OK; SSE stream; the server closed the connection before the response ended',
        },
      ],
      ended: [],
    });
  });

  it('records a request the server never answered, and the spy’s own answer', () => {
    const got = observe([
      { type: 'open', x: 1, method: 'POST', path: '/mcp', headers: json },
      { type: 'request-chunk', x: 1, t: t + 1, data: call(2) },
      {
        type: 'failed',
        x: 1,
        t: t + 2,
        failure: {
          stage: 'connect',
          message: 'the server connection failed: ECONNREFUSED',
          answered: { status: 502, body: rpc({ jsonrpc: '2.0', id: 2, error: { code: -32000, message: 'no server' } }) },
        },
      },
    ]);
    expect(got).toEqual({
      entries: [
        { kind: 'request', session: 'x-1', dir: 'c2s', id: 2 },
        {
          kind: 'http',
          session: 'x-1',
          status: 502,
          reason: 'the server connection failed: ECONNREFUSED',
          summary: 'Bad Gateway; the server connection failed: ECONNREFUSED',
        },
        { kind: 'protocol-error', session: 'x-1', dir: 's2c', id: 2 },
      ],
      ended: ['x-1'],
    });
  });

  it('describes bodies that are not MCP, and records JSON-RPC sent elsewhere as frames', () => {
    const got = observe([
      { type: 'open', x: 1, method: 'POST', path: '/token', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      { type: 'request-chunk', x: 1, t: t + 1, data: data('grant_type=client_credentials&client_secret=hush') },
      { type: 'request-end', x: 1, t: t + 2 },
      { type: 'response', x: 1, t: t + 3, status: 200, headers: json },
      { type: 'response-chunk', x: 1, t: t + 4, data: rpc({ access_token: 'tok', token_type: 'Bearer' }) },
      { type: 'response-end', x: 1, t: t + 5 },
      { type: 'open', x: 2, method: 'POST', path: '/rpc', headers: json },
      { type: 'request-chunk', x: 2, t: t + 6, data: call(3) },
      { type: 'request-end', x: 2, t: t + 7 },
      { type: 'response', x: 2, t: t + 8, status: 200, headers: json },
      { type: 'response-chunk', x: 2, t: t + 9, data: rpc(answer(3)) },
      { type: 'response-end', x: 2, t: t + 10 },
    ]);
    expect(got).toEqual({
      entries: [
        { kind: 'http', session: 'x-1', status: 200, summary: 'application/json: token issued, Bearer; client_credentials grant' },
        { kind: 'request', session: 'x-2', dir: 'c2s', id: 3 },
        { kind: 'response', session: 'x-2', dir: 's2c', id: 3 },
      ],
      ended: ['x-1', 'x-2'],
    });
  });
});
