// Fault injection on HTTP: the SDK client, `mcp-spy http --fault` in front of a plain spy in front of
// server-everything (Streamable HTTP). The plain spy's record is what really reached the server.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingHttp, freePort, startSpy, eventually, type Spy } from '../helpers/http-spy.js';
import { fixture, node, runBin } from '../helpers/spy.js';
import { recordEntry } from '../../src/record/entry-schema.js';
import { join } from 'node:path';

let inner: Spy;
beforeAll(async () => {
  const port = await freePort();
  inner = await startSpy(['--target', `http://127.0.0.1:${port}/mcp`], everythingHttp('streamableHttp')(port));
});
afterAll(async () => {
  await inner?.dispose();
});

type Entries = ReturnType<Spy['entries']>;

/**
 * One call (echo by default) through a faulting spy in front of `server` (a plain spy in front of the
 * server): what the client got, what it reported on the way (`errors`, `progress`), the faulting spy's
 * record, what reached the server.
 */
async function faulted(rule: string, until: (entries: Entries) => boolean = () => true, options: { call?: { name: string; arguments: object }; server?: Spy; timeoutMs?: number; replay?: boolean } = {}) {
  const { call, server = inner, timeoutMs = 1500 } = options;
  const outer = await startSpy(['--target', server.url, '--fault', rule]);
  const client = new Client({ name: `fault-client-${Math.random()}`, version: '1.0.0' });
  const errors: string[] = [];
  client.onerror = (error) => errors.push(error.message);
  const transport = new StreamableHTTPClientTransport(new URL(outer.url));
  await client.connect(transport);
  const marker = `hello ${Math.random()}`;
  const progress: number[] = [];
  const outcome = await client
    .callTool(call ?? { name: 'echo', arguments: { message: marker } }, undefined, { timeout: timeoutMs, onprogress: ({ progress: step }) => progress.push(step) })
    .then((result) => ({ result }), (error: Error & { code?: number }) => ({ thrown: error.message, code: error.code }));
  // What the client saw of the call's own stream, before it gave up or resumed elsewhere.
  const seen = { errors: [...errors], progress: [...progress] };
  await client.close().catch(() => {});
  const faults = await eventually(() => {
    const found = outer.entries().filter((entry) => entry.kind === 'fault');
    return found.length > 0 && until(outer.entries()) ? found : undefined;
  });
  const entries = outer.entries();
  for (const entry of entries) recordEntry.parse(entry);
  const check = await runBin(['check', join(outer.dir, 'wire.jsonl')]);
  const view = await runBin(['view', join(outer.dir, 'wire.jsonl')]);
  const replay = options.replay ? await runBin(['replay', join(outer.dir, 'wire.jsonl'), '--target', server.url]) : undefined;
  await outer.dispose();
  // check does not blame the server for what the spy did on purpose.
  expect(check.stdout.toString() + check.stderr).toContain('clean');
  const reached = server.entries().some((entry) => entry.method === 'tools/call' && JSON.stringify(entry.msg ?? entry.raw).includes(call ? call.name : marker));
  const calls = entries.filter((entry) => entry.kind !== 'fault' && (entry.method === 'tools/call' || JSON.stringify(entry.msg ?? '').includes(marker) || entry.origin === 'spy'));
  return { outcome, faults, reached, check, marker, entries, calls, view: view.stdout.toString(), replay, ...seen };
}

describe('mcp-spy http --fault, the SDK client and server-everything', () => {
  it('tool-error answers in the server\'s place; the call never reaches the server', async () => {
    const run = await faulted('tools/call tool=echo: tool-error "disk full"');
    expect(run.outcome).toEqual({ result: { content: [{ type: 'text', text: 'disk full' }], isError: true } });
    expect(run.reached).toBe(false);
    expect(run.faults[0]).toMatchObject({ kind: 'fault', action: 'tool-error', method: 'tools/call', tool: 'echo' });
    expect(run.check.code).toBe(0);
    // The record marks the frames as the stdio spy does: the request the rule matched, the answer the spy made.
    const rule = 'tools/call tool=echo: tool-error "disk full"';
    const request = run.entries.find((entry) => entry.kind === 'request' && entry.method === 'tools/call');
    expect(request).toMatchObject({ dir: 'c2s', fault: rule });
    expect(request!.origin).toBeUndefined();
    const answer = run.entries.find((entry) => entry.dir === 's2c' && entry.id === request!.id && entry.kind !== 'fault');
    expect(answer).toMatchObject({ origin: 'spy', fault: rule });
    expect(run.view).toContain('(injected by mcp-spy)');
    expect(run.view).toContain('(faulted)');
  });

  it('error answers with the code and message; never reaches the server', async () => {
    const run = await faulted('tools/call: error -32603 "backend down"');
    expect(run.outcome).toMatchObject({ code: -32603, thrown: expect.stringContaining('backend down') });
    expect(run.reached).toBe(false);
  });

  it('delay passes the call on, late', async () => {
    const started = Date.now();
    const run = await faulted('tools/call: delay 1s', (entries) => entries.some((entry) => entry.dir === 's2c' && JSON.stringify(entry.msg ?? '').includes('Echo:')));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(run.outcome).toEqual({ result: { content: [{ type: 'text', text: `Echo: ${run.marker}` }] } });
    expect(run.reached).toBe(true);
    // The late request is marked; the server's own answer is not the spy's.
    const request = run.entries.find((entry) => entry.kind === 'request' && entry.method === 'tools/call');
    expect(request).toMatchObject({ fault: 'tools/call: delay 1s' });
    const answer = run.entries.find((entry) => entry.dir === 's2c' && entry.id === request!.id && entry.kind !== 'fault');
    expect(answer).toBeDefined();
    expect(answer!.fault).toBeUndefined();
    expect(answer!.origin).toBeUndefined();
  });

  it.each(['drop', 'timeout'])('%s holds the call: the client times out, the server never gets it', async (action) => {
    const run = await faulted(`tools/call: ${action}`);
    expect(run.outcome).toMatchObject({ code: -32001 });
    expect(run.reached).toBe(false);
    expect(run.entries.find((entry) => entry.kind === 'request' && entry.method === 'tools/call')).toMatchObject({ fault: `tools/call: ${action}` });
  });

  it('status 429 retry-after=2 answers that status; never reaches the server', async () => {
    const run = await faulted('tools/call: status 429 retry-after=2 p=1');
    expect(run.outcome).toMatchObject({ code: 429 });
    expect(run.reached).toBe(false);
    expect(run.faults[0]).toMatchObject({ action: 'status', text: 'answered HTTP 429; not passed on' });
  });

  it('expire-session answers 404 as for a session the server forgot', async () => {
    const run = await faulted('tools/call: expire-session');
    expect(run.outcome).toMatchObject({ code: 404, thrown: expect.stringContaining('Session not found') });
    expect(run.reached).toBe(false);
    const request = run.entries.find((entry) => entry.kind === 'request' && entry.method === 'tools/call');
    expect(run.entries.find((entry) => entry.dir === 's2c' && entry.id === request!.id && entry.kind !== 'fault')).toMatchObject({ origin: 'spy', fault: 'tools/call: expire-session' });
  });

  it('disconnect resets the connection; never reaches the server', async () => {
    const run = await faulted('tools/call: disconnect');
    expect(run.outcome).toMatchObject({ thrown: expect.stringMatching(/fetch failed|socket|reset/i) });
    expect(run.reached).toBe(false);
  });

  it('timeout: the cancellation of the held call is answered 202, swallowed and marked; the spy lives on', async () => {
    const rule = 'tools/call: timeout';
    const outer = await startSpy(['--target', inner.url, '--fault', rule]);
    const post = (body: object, signal?: AbortSignal) => fetch(outer.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', ...body }), ...(signal ? { signal } : {}) });
    const abort = new AbortController();
    const heldCall = post({ id: 5, method: 'tools/call', params: { name: 'echo', arguments: { message: 'held' } } }, abort.signal).catch(() => undefined);
    await eventually(() => outer.entries().find((entry) => entry.kind === 'fault'));
    const cancelled = await post({ method: 'notifications/cancelled', params: { requestId: 5 } });
    expect(cancelled.status).toBe(202);
    abort.abort();
    await heldCall;
    const notification = await eventually(() => outer.entries().find((entry) => entry.kind === 'notification' && entry.method === 'notifications/cancelled'));
    expect(notification).toMatchObject({ fault: rule });
    expect(outer.entries().filter((entry) => entry.kind === 'fault').map((entry) => entry.text)).toEqual(['held unanswered until cancelled or the client gives up; not passed on', 'the held request 5 was cancelled; the cancellation is not passed on either']);
    // Still serving.
    expect((await post({ method: 'notifications/initialized' })).status).toBeLessThan(500);
    await outer.dispose();
  });

  it('refuses what has no meaning on HTTP with one line, exit 2', async () => {
    const run = await runBin(['http', '--target', inner.url, '--fault', 'tools/call: noise stderr "x"']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(`mcp-spy: 'tools/call: noise stderr "x"': noise stderr is for stdio: on HTTP noise goes into the answer (write noise "text")`);
  });
});

/** The frames of the exchange that carried the faulted call, after its request. */
function answerFrames(entries: Entries) {
  const request = entries.find((entry) => entry.kind === 'request' && entry.method === 'tools/call')!;
  return { request, frames: entries.filter((entry) => entry.dir === 's2c' && entry.exchange === request.exchange) };
}

describe('mcp-spy http --fault on the answer of a call passed on (server-everything, SSE)', () => {
  it('slow-stream holds each event of the answer, its bytes unchanged', async () => {
    const rule = 'tools/call: slow-stream 1s';
    // Two events (the priming event, the answer), each held a second: the client waits longer for them.
    const run = await faulted(rule, (entries) => answerFrames(entries).frames.length > 0, { timeoutMs: 30_000 });
    expect(run.outcome).toEqual({ result: { content: [{ type: 'text', text: `Echo: ${run.marker}` }] } });
    expect(run.reached).toBe(true);
    expect(run.faults[0]).toMatchObject({ action: 'slow-stream', text: 'passed on; each event of its answer held 1000ms after the one before' });
    const { request, frames } = answerFrames(run.entries);
    expect(request).toMatchObject({ fault: rule });
    expect(frames).toHaveLength(1);
    // Held, not made: marked with the rule, not as the spy's; its event as the server sent it.
    expect(frames[0]).toMatchObject({ kind: 'response', fault: rule });
    expect(frames[0]!.origin).toBeUndefined();
    expect(Date.parse(String(frames[0]!.t)) - Date.parse(String(request.t))).toBeGreaterThanOrEqual(2000);
    const sent = inner.entries().find((entry) => entry.dir === 's2c' && JSON.stringify(entry.msg ?? '').includes(run.marker));
    expect(frames[0]!.msg).toEqual(sent!.msg);
    expect(frames[0]!.sse).toEqual(sent!.sse);
  });

  it('cut-stream closes the connection at once: the client sees its stream end without the answer', async () => {
    const rule = 'tools/call: cut-stream';
    const run = await faulted(rule, (entries) => entries.some((entry) => entry.kind === 'http' && String(entry.reason ?? '').includes('closed the connection')));
    expect(run.outcome).toMatchObject({ code: -32001 });
    expect(run.errors).toContainEqual(expect.stringMatching(/SSE stream disconnected/));
    expect(run.reached).toBe(true);
    const { request, frames } = answerFrames(run.entries);
    expect(request).toMatchObject({ fault: rule });
    expect(frames).toEqual([]);
    expect(run.entries.find((entry) => entry.kind === 'http' && entry.exchange === request.exchange)).toMatchObject({
      status: 200,
      reason: `the fault rule ${rule} closed the connection at once, before the answer`,
    });
  });

  it('cut-stream 1 lets one message through, then closes the connection before the answer', async () => {
    const rule = 'tools/call: cut-stream 1';
    const call = { name: 'trigger-long-running-operation', arguments: { duration: 2, steps: 4 } };
    const run = await faulted(rule, (entries) => entries.some((entry) => entry.kind === 'http' && String(entry.reason ?? '').includes('closed the connection')), { call });
    expect(run.errors[0]).toMatch(/SSE stream disconnected/);
    expect(run.progress[0]).toBe(1);
    const { frames } = answerFrames(run.entries);
    expect(frames.map((frame) => [frame.kind, frame.method])).toEqual([['notification', 'notifications/progress']]);
  });

  it.each([
    ['invalid-json', 'invalid', /JSON/],
    ['cut', 'invalid', /JSON/],
    ['wrong-id', 'response', /unknown message ID/],
  ])('corrupt %s spoils the answer event; the original beside it', async (mode, kind, error) => {
    const rule = `tools/call: corrupt ${mode}`;
    const run = await faulted(rule, (entries) => answerFrames(entries).frames.length > 0);
    expect(run.outcome).toMatchObject({ code: -32001 });
    expect(run.errors).toContainEqual(expect.stringMatching(error));
    expect(run.reached).toBe(true);
    const { frames } = answerFrames(run.entries);
    expect(frames).toHaveLength(1);
    expect(frames[0]).toMatchObject({ kind, origin: 'spy', fault: rule });
    const sent = inner.entries().find((entry) => entry.dir === 's2c' && JSON.stringify(entry.msg ?? '').includes(run.marker));
    expect(JSON.parse(String(frames[0]!.original))).toEqual(sent!.msg);
  });

  it('noise puts an event of text before the answer; the answer still arrives', async () => {
    const rule = 'tools/call: noise "warming up"';
    const run = await faulted(rule, (entries) => answerFrames(entries).frames.length > 1);
    expect(run.outcome).toEqual({ result: { content: [{ type: 'text', text: `Echo: ${run.marker}` }] } });
    expect(run.errors).toContainEqual(expect.stringMatching(/not valid JSON/));
    const { frames } = answerFrames(run.entries);
    expect(frames[0]).toMatchObject({ kind: 'invalid', raw: 'warming up', origin: 'spy', fault: rule });
    expect(frames[1]).toMatchObject({ kind: 'response' });
    expect(frames[1]!.fault).toBeUndefined();
  });
});

describe('replay of an HTTP recording made with fault rules', () => {
  // initialize, and the call unless the server's answer to it is not in the record (answered in its place, or cut).
  it.each([
    ['tools/call: error -32603 "down"', 1],
    ['tools/call: cut-stream', 1],
    ['tools/call: corrupt', 2],
    ['tools/call: noise "n"', 2],
  ])(
    '%s: compares with what the server really said, leaving out what it never said',
    async (rule, same) => {
      const run = await faulted(rule, (entries) => entries.some((entry) => entry.kind === 'request' && entry.method === 'tools/call'), { replay: true });
      expect(run.replay!.stdout.toString()).toContain(`replay passed: ${same} same, 0 changed, 0 missing, 0 extra`);
      expect(run.replay!.code).toBe(0);
    },
  );
});

describe('mcp-spy http --fault on a JSON answer (the SDK server with JSON responses)', () => {
  let json: Spy;
  beforeAll(async () => {
    const port = await freePort();
    json = await startSpy(['--target', `http://127.0.0.1:${port}/mcp`], [node, fixture('http', 'tool-server.js'), '--json', '--port', String(port)]);
  });
  afterAll(async () => {
    await json?.dispose();
  });

  it.each([
    ['corrupt', /JSON/, { kind: 'invalid', origin: 'spy' }],
    ['noise "banner"', /not valid JSON/, { kind: 'invalid', origin: 'spy', raw: expect.stringMatching(/^banner\n\{/) }],
    ['cut-stream', /terminated|other side closed|socket/i, undefined],
  ])('%s: the client gets a body that is not the answer', async (action, thrown, frame) => {
    const rule = `tools/call: ${action}`;
    const run = await faulted(rule, (entries) => entries.some((entry) => entry.kind === 'unanswered' || (entry.dir === 's2c' && entry.origin === 'spy') || String(entry.reason ?? '').includes('closed')), { server: json });
    expect(run.outcome).toMatchObject({ thrown: expect.stringMatching(thrown) });
    expect(run.reached).toBe(true);
    const { frames } = answerFrames(run.entries);
    if (frame) expect(frames).toEqual([expect.objectContaining({ ...frame, fault: rule, original: expect.stringContaining(run.marker) })]);
    else expect(frames).toEqual([]);
  });

  it('slow-stream holds the body, then delivers it as it was', async () => {
    const run = await faulted('tools/call: slow-stream 1s', (entries) => answerFrames(entries).frames.length > 0, { server: json });
    expect(run.outcome).toEqual({ result: { content: [{ type: 'text', text: run.marker }] } });
    const { request, frames } = answerFrames(run.entries);
    expect(frames[0]).toMatchObject({ kind: 'response', fault: 'tools/call: slow-stream 1s' });
    expect(Date.parse(String(frames[0]!.t)) - Date.parse(String(request.t))).toBeGreaterThanOrEqual(1000);
  });
});
