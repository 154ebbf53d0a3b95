// Fault injection on HTTP: the SDK client, `mcp-spy http --fault` in front of a plain spy in front of
// server-everything (Streamable HTTP). The plain spy's record is what really reached the server.
import { describe, expect, it } from 'vitest';
import { everythingHttp, eventually, spyInFront, startSpy } from '../helpers/http-spy.js';
import { faultedCall, type Entries } from '../helpers/http-faults.js';
import { runBin } from '../helpers/spy.js';

// The plain spy in front of server-everything: its record is what really reached the server.
const front = spyInFront('/mcp', everythingHttp('streamableHttp'));

const faulted = (rule: string, until?: (entries: Entries) => boolean) => faultedCall(front.spy, rule, until);

describe('mcp-spy http --fault, the SDK client and server-everything', () => {
  it("tool-error answers in the server's place; the call never reaches the server", async () => {
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
    const run = await faulted('tools/call: delay 1s', (entries) =>
      entries.some((entry) => entry.dir === 's2c' && JSON.stringify(entry.msg ?? '').includes('Echo:')),
    );
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
    expect(run.entries.find((entry) => entry.dir === 's2c' && entry.id === request!.id && entry.kind !== 'fault')).toMatchObject({
      origin: 'spy',
      fault: 'tools/call: expire-session',
    });
  });

  it('disconnect resets the connection; never reaches the server', async () => {
    const run = await faulted('tools/call: disconnect');
    expect(run.outcome).toMatchObject({ thrown: expect.stringMatching(/fetch failed|socket|reset/i) });
    expect(run.reached).toBe(false);
  });

  it('timeout: the cancellation of the held call is answered 202, swallowed and marked; the spy lives on', async () => {
    const rule = 'tools/call: timeout';
    const outer = await startSpy(['--target', front.spy.url, '--fault', rule]);
    const post = (body: object, signal?: AbortSignal) =>
      fetch(outer.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', ...body }),
        ...(signal ? { signal } : {}),
      });
    const abort = new AbortController();
    const heldCall = post({ id: 5, method: 'tools/call', params: { name: 'echo', arguments: { message: 'held' } } }, abort.signal).catch(() => undefined);
    await eventually(() => outer.entries().find((entry) => entry.kind === 'fault'));
    const cancelled = await post({ method: 'notifications/cancelled', params: { requestId: 5 } });
    expect(cancelled.status).toBe(202);
    abort.abort();
    await heldCall;
    const notification = await eventually(() => outer.entries().find((entry) => entry.kind === 'notification' && entry.method === 'notifications/cancelled'));
    expect(notification).toMatchObject({ fault: rule });
    expect(
      outer
        .entries()
        .filter((entry) => entry.kind === 'fault')
        .map((entry) => entry.text),
    ).toEqual([
      'held unanswered until cancelled or the client gives up; not passed on',
      'the held request 5 was cancelled; the cancellation is not passed on either',
    ]);
    // Still serving.
    expect((await post({ method: 'notifications/initialized' })).status).toBeLessThan(500);
    await outer.dispose();
  });

  it('refuses what has no meaning on HTTP with one line, exit 2', async () => {
    const run = await runBin(['http', '--target', front.spy.url, '--fault', 'tools/call: noise stderr "x"']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `mcp-spy: 'tools/call: noise stderr "x"': noise stderr is for stdio: on HTTP noise goes into the answer (write noise "text")`,
    );
  });
});
