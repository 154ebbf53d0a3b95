// Fault rules that act on the answer of a call the HTTP spy passes on (slow-stream, cut-stream, corrupt,
// noise), --seed on HTTP, and replay of what they recorded: the SDK client through `mcp-spy http --fault`
// in front of a plain spy in front of server-everything (SSE answers) or the SDK server answering JSON.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { answerFrames, faultedCall, type Entries } from '../helpers/http-faults.js';
import { eventually, everythingHttp, freePort, spyInFront, startSpy, type Spy } from '../helpers/http-spy.js';
import { fixture, node } from '../helpers/spy.js';

// The plain spy in front of server-everything: its record is what really reached the server.
const front = spyInFront('/mcp', everythingHttp('streamableHttp'));

const faulted = (rule: string, until?: (entries: Entries) => boolean, options: Parameters<typeof faultedCall>[3] & { server?: Spy } = {}) =>
  faultedCall(options.server ?? front.spy, rule, until, options);

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
    const sent = front.spy.entries().find((entry) => entry.dir === 's2c' && JSON.stringify(entry.msg ?? '').includes(run.marker));
    expect(frames[0]!.msg).toEqual(sent!.msg);
    expect(frames[0]!.sse).toEqual(sent!.sse);
  });

  it('cut-stream closes the connection at once: the client sees its stream end without the answer', async () => {
    const rule = 'tools/call: cut-stream';
    const run = await faulted(rule, (entries) =>
      entries.some((entry) => entry.kind === 'http' && String(entry.reason ?? '').includes('closed the connection')),
    );
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
    const run = await faulted(
      rule,
      (entries) => entries.some((entry) => entry.kind === 'http' && String(entry.reason ?? '').includes('closed the connection')),
      { call },
    );
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
    const sent = front.spy.entries().find((entry) => entry.dir === 's2c' && JSON.stringify(entry.msg ?? '').includes(run.marker));
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

describe('corrupt on a notification posted over HTTP', () => {
  it('spoils the posted body itself: the server gets the spoiled bytes, the record has the original beside them', async () => {
    const rule = 'notifications/initialized: corrupt';
    const outer = await startSpy(['--target', front.spy.url, '--fault', rule]);
    onTestFinished(() => outer.dispose().then(() => {}));
    const sent = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized', params: { marker: String(Math.random()) } });
    const answer = await fetch(outer.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: sent,
    });
    // The server's own answer to a body that is not JSON.
    expect(answer.status).toBe(400);
    const posted = await eventually(() => outer.entries().find((entry) => entry.dir === 'c2s' && entry.origin === 'spy'));
    expect(posted).toMatchObject({ kind: 'invalid', fault: rule, original: sent, raw: sent.replace('{', '{{') });
    expect(outer.entries().find((entry) => entry.kind === 'fault')).toMatchObject({ action: 'corrupt', text: 'spoiled (invalid-json), then passed on' });
    await eventually(() => front.spy.entries().find((entry) => entry.dir === 'c2s' && entry.raw === sent.replace('{', '{{')));
  });
});

describe('--seed on HTTP', () => {
  /** Twelve echo calls through a spy with a rule that fires with p=0.5: which of them failed. */
  async function faultedCalls(seed: string) {
    const outer = await startSpy(['--target', front.spy.url, '--fault', 'tools/call p=0.5: tool-error "x"', '--seed', seed]);
    try {
      const client = new Client({ name: 'seed-client', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(outer.url)));
      const failed: number[] = [];
      for (let call = 1; call <= 12; call++) {
        const result = await client.callTool({ name: 'echo', arguments: { message: String(call) } });
        if (result.isError) failed.push(call);
      }
      await client.close().catch(() => {});
      return failed;
    } finally {
      await outer.dispose();
    }
  }
  it('repeats the same faults on the same calls twice in a row', async () => {
    const first = await faultedCalls('7');
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(12);
    expect(await faultedCalls('7')).toEqual(first);
  });
});

describe('replay of an HTTP recording made with fault rules', () => {
  // initialize, and the call unless the server's answer to it is not in the record (answered in its place, or cut).
  it.each([
    ['tools/call: error -32603 "down"', 1],
    ['tools/call: cut-stream', 1],
    ['tools/call: corrupt', 2],
    ['tools/call: noise "n"', 2],
  ])('%s: compares with what the server really said, leaving out what it never said', async (rule, same) => {
    const run = await faulted(rule, (entries) => entries.some((entry) => entry.kind === 'request' && entry.method === 'tools/call'), { replay: true });
    expect(run.replay!.stdout.toString()).toContain(`replay passed: ${same} same, 0 changed, 0 missing, 0 extra`);
    expect(run.replay!.code).toBe(0);
  });
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
    const run = await faulted(
      rule,
      (entries) =>
        entries.some(
          (entry) => entry.kind === 'unanswered' || (entry.dir === 's2c' && entry.origin === 'spy') || String(entry.reason ?? '').includes('closed'),
        ),
      { server: json },
    );
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
