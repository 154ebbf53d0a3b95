// One definition of an unanswered request, for the record the spy writes live, `stats`, `check` and
// the report: the cases where they disagreed, or where the answer depended on a race.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRecord } from '../helpers/faults.js';
import { freePort, run, startSpy } from '../helpers/http-spy.js';
import { bin, everythingServer, fixture, node, rawSpyClient, recordSession, runBin, runClient, tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-unanswered-');
afterAll(() => temp.remove());

/** What each reader says of a record: the spy's own unanswered events, stats, check. */
async function verdicts(record: string) {
  const unansweredEvents = readRecord(record).filter((entry) => entry.kind === 'unanswered');
  const stats = await runBin(['stats', record]);
  const check = await runBin(['check', record]);
  return { unansweredEvents, stats: /Unanswered requests: (\S+)/.exec(stats.text)?.[1], check: check.text, checkCode: check.code };
}

/**
 * A raw stdio client of server-everything (declaring roots) that closes its input the moment the
 * server asks for its roots, without answering: the spy sees the request before the close (a client
 * that closes at the moment the server asks is seen one way or the other, as the scheduler has it).
 */
async function closeOnRoots(record: string) {
  const { child, until, send } = rawSpyClient(record, [node, everythingServer, 'stdio']);
  send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { roots: {} }, clientInfo: { name: 'raw', version: '1' } } });
  await until('"id":1');
  send({ method: 'notifications/initialized' });
  await until('"roots/list"');
  const closed = new Promise((resolve) => child.once('close', resolve));
  // server-everything keeps running after its input ends: stopped as the SDK client stops it.
  child.stdin!.end(() => child.kill('SIGTERM'));
  await closed;
}

describe("a server request racing the client's close", () => {
  it('seen before the close, with nothing from the client after it, is client-closed as when seen after', async () => {
    const record = join(temp.dir, 'close-on-roots.jsonl');
    await closeOnRoots(record);
    const entries = readRecord(record);
    const roots = entries.find((entry) => entry.kind === 'request' && entry.method === 'roots/list')!;
    expect(roots).toBeDefined();
    const note = entries.find((entry) => entry.kind === 'note' && entry.notes?.includes('client-closed'));
    expect(note).toMatchObject({ related: { seq: roots.seq, method: 'roots/list' } });
    expect(note?.text).toContain('the client closed its input without answering roots/list');
    const seen = await verdicts(record);
    expect(seen.unansweredEvents).toEqual([]);
    expect(seen.stats).toBe('none');
    expect(seen.check).toContain('clean');
    expect(seen.checkCode).toBe(0);
  }, 30_000);

  it('sent after the close (the other order) is client-closed too, for stats as for check', async () => {
    const record = join(temp.dir, 'leave.jsonl');
    await recordSession('everything-client.js', record, [node, everythingServer, 'stdio'], { SCENARIO: 'leave' });
    expect(readRecord(record).find((entry) => entry.kind === 'request' && entry.method === 'roots/list')?.notes).toEqual(['client-closed']);
    const seen = await verdicts(record);
    expect(seen.unansweredEvents).toEqual([]);
    expect(seen.stats).toBe('none');
    expect(seen.check).toContain('clean');
  }, 30_000);
});

/** Posts JSON-RPC to `url` as a Streamable HTTP client does. */
const post = (url: string, body: object, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', ...body }),
  });

describe('a request posted to a session after its DELETE', () => {
  it('is answered by the 404, not left unanswered', async () => {
    const port = await freePort();
    const spy = await startSpy(['--target', `http://127.0.0.1:${port}/mcp`], [node, fixture('http', 'tool-server.js'), '--port', String(port)]);
    const record = join(spy.dir, 'wire.jsonl');
    try {
      const init = await post(spy.url, {
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      });
      const session = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' };
      await init.text();
      await (await post(spy.url, { method: 'notifications/initialized' }, session)).text();
      expect((await fetch(spy.url, { method: 'DELETE', headers: session })).status).toBe(200);
      const gone = await post(spy.url, { id: 2, method: 'tools/list' }, session);
      expect(gone.status).toBe(404);
      await gone.text();
      await spy.stop();
      const entries = readRecord(record);
      const list = entries.find((entry) => entry.kind === 'request' && entry.method === 'tools/list')!;
      expect(entries.find((entry) => entry.kind === 'http' && entry.status === 404)).toMatchObject({
        requests: [{ seq: list.seq, id: 2, method: 'tools/list' }],
      });
      const seen = await verdicts(record);
      expect(seen.unansweredEvents).toEqual([]);
      expect(seen.stats).toBe('none');
      expect(seen.check).not.toContain('unanswered-request');
    } finally {
      await spy.dispose();
    }
  }, 30_000);
});

describe('a call cancelled on stateless HTTP (the cancellation in an exchange of its own)', () => {
  it('is related to its call live, neither unanswered nor an unknown cancellation, as check has it', async () => {
    const dir = join(temp.dir, 'stateless');
    mkdirSync(dir);
    const [record, log] = [join(dir, 'wire.jsonl'), join(dir, 'wire.log')];
    const port = await freePort();
    // Not quiet: the live view on stderr is where a user saw the false verdicts.
    const server = [node, fixture('http', 'stateless-server.js'), '--port', String(port)];
    const spy = await run(
      node,
      [bin, 'http', '--target', `http://127.0.0.1:${port}/mcp`, '--record', record, '--log', log, '--', ...server],
      /listening on (\S+),/,
      {
        cwd: dir,
        env: { FORCE_COLOR: '0' },
      },
    );
    // Closed, not only exited: the live view's last lines are read to their end.
    const closed = new Promise((resolve) => spy.child.once('close', resolve));
    try {
      await runClient('everything-client.js', ['--url', spy.url], { SCENARIO: 'cancel' });
    } finally {
      await spy.stop();
    }
    await closed;
    const entries = readRecord(record);
    const call = entries.find((entry) => entry.kind === 'request' && entry.method === 'tools/call')!;
    const cancel = entries.find((entry) => entry.method === 'notifications/cancelled')!;
    expect(cancel.session).not.toBe(call.session);
    expect(cancel.related).toMatchObject({ seq: call.seq, method: 'tools/call' });
    expect(cancel.notes ?? []).not.toContain('cancel-unknown-request');
    const seen = await verdicts(record);
    expect(seen.unansweredEvents).toEqual([]);
    expect(seen.stats).toBe('none');
    expect(seen.check).toContain('clean');
    for (const shown of [spy.stderr(), readFileSync(log, 'utf8')]) {
      expect(shown).toMatch(/-> notify +notifications\/cancelled for #\d+ tools\/call /);
      expect(shown).not.toMatch(/unanswered|cancel-unknown-request/);
    }
  }, 30_000);
});
