// Acceptance: a 2026-07-28 recording (SDK v2 client and server: a server/discover probe run, then the
// session, no handshake, _meta on each request) replays and mocks; records shaped as the HTTP spy writes
// them (session = Mcp-Session-Id, or one per stateless exchange, plus http events) replay too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, withMock } from '../helpers/http-spy.js';
import { bin, fixture, node, readEntries, recordSession, runBin, runClient, tempDir } from '../helpers/spy.js';

const temp = tempDir();
const record = join(temp.dir, 'v2.jsonl');
const v1Record = join(temp.dir, 'v1.jsonl');
const stdioServer = [node, fixture('v2', 'server.js')];
let realResults: unknown;

/** The same frames as the HTTP spy records them: `session` per HTTP session or exchange, `http` events beside. */
function asHttpRecord(source: string, target: string, sessionOf: (entry: Record<string, unknown>, exchange: number) => string) {
  const lines: string[] = [];
  let exchange = 0;
  let seq = 0;
  /** Entries are numbered anew: a response's `related` follows its request's new seq. */
  const renumbered = new Map<number, number>();
  for (const entry of readEntries(source)) {
    if (entry.kind === 'spawn' || entry.kind === 'exit' || entry.kind === 'stderr') continue;
    if (entry.dir === 'c2s' && entry.kind === 'request') exchange++;
    const session = sessionOf(entry, exchange);
    if (entry.dir === 'c2s') {
      lines.push(
        JSON.stringify({
          v: 1,
          seq: ++seq,
          t: entry.t,
          session,
          kind: 'http',
          httpMethod: 'POST',
          path: '/mcp',
          status: entry.kind === 'request' ? 200 : 202,
          headers: { 'mcp-method': entry.method },
        }),
      );
    }
    renumbered.set(entry.seq, ++seq);
    const related = entry.related ? { ...entry.related, seq: renumbered.get(entry.related.seq)! } : undefined;
    lines.push(JSON.stringify({ ...entry, seq, session, ...(related ? { related } : {}) }));
  }
  writeFileSync(target, `${lines.join('\n')}\n`);
}

beforeAll(async () => {
  realResults = await recordSession('v2-client.js', record, stdioServer);
  await recordSession('everything-client.js', v1Record, [node, fixture('servers', 'greet-server.js')], { SCENARIO: 'fixture' });
});
afterAll(() => temp.remove());

describe('2026-07-28 recordings', () => {
  it('were recorded as two sessions: the discover probe and the session without a handshake', () => {
    const sessions = [...new Set(readEntries(record).map((entry) => entry.session))];
    expect(sessions).toHaveLength(2);
    expect(readEntries(record).some((entry) => entry.method === 'initialize')).toBe(false);
  });

  it('replay over stdio, each session against a fresh server, the probe marked', async () => {
    const result = await runBin(['replay', record, '--format', 'json', '--', ...stdioServer]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.text);
    expect(
      report.sessions.map((session: { revision: string; probe: boolean; items: { method: string; name?: string }[] }) => [
        session.revision,
        session.probe,
        session.items.map((item) => item.name ?? item.method),
      ]),
    ).toEqual([
      ['2026-07-28', true, ['server/discover']],
      ['2026-07-28', false, ['tools/list', 'greet', 'add']],
    ]);
  });

  it('replay against a v2 HTTP server (--target), and catch its change', async () => {
    const same = await run(node, [fixture('v2', 'server.js'), 'http'], /(http:\/\/\S+)/);
    const changed = await run(node, [fixture('v2', 'server.js'), 'http', '--changed'], /(http:\/\/\S+)/);
    try {
      const ok = await runBin(['replay', record, '--target', same.url]);
      expect(ok.text).toContain('replay passed: 4 same, 0 changed, 0 missing, 0 extra');
      expect(ok.code).toBe(0);
      const bad = await runBin(['replay', record, '--target', changed.url]);
      expect(bad.text).toMatch(/changed #4 tools\/call greet \(id 1\) \d+ms\n {6}result\.content\[0\]\.text: "Hello, Ada!" -> "Hi there, Ada\."/);
      expect(bad.code).toBe(1);
      // The HTTP spy's shape: one session per stateless exchange, replayed as one run.
      const httpRecord = join(temp.dir, 'v2-http.jsonl');
      asHttpRecord(record, httpRecord, (_entry, exchange) => `exchange-${exchange}`);
      const fromHttp = await runBin(['replay', httpRecord, '--format', 'json', '--target', same.url]);
      const report = JSON.parse(fromHttp.text);
      expect(report.sessions).toHaveLength(1);
      expect(report.sessions[0]).toMatchObject({ transport: 'http', revision: '2026-07-28', probe: false });
      expect(report.counts).toEqual({ same: 4, changed: 0, missing: 0, extra: 0 });
    } finally {
      await same.stop();
      await changed.stop();
    }
  });

  it('mock for the v2 client over stdio (probe and session alike) and over HTTP', async () => {
    expect(await runClient('v2-client.js', ['--', node, bin, 'mock', record])).toEqual(realResults);
    expect(await withMock(record, (url) => runClient('v2-client.js', ['--url', url]))).toEqual(realResults);
  });
});

describe('records from the HTTP spy (2025 revisions)', () => {
  it('replay a session keyed by Mcp-Session-Id, with http events, against a stdio server', async () => {
    const httpRecord = join(temp.dir, 'v1-http.jsonl');
    asHttpRecord(v1Record, httpRecord, () => '0d6f3c1e-4b7a-4c38-9a51-7f2d8e6b9a10');
    const result = await runBin(['replay', httpRecord, '--', node, fixture('servers', 'greet-server.js')]);
    expect(result.text).toMatch(/^session 0d6f3c1e-4b7a-4c38-9a51-7f2d8e6b9a10 \(http, 2025-11-25\)\n/);
    expect(result.text).toContain('replay passed: 4 same, 0 changed, 0 missing, 0 extra');
    expect(result.code).toBe(0);
  });

  it('join an initialize exchange recorded apart from the session id it created', async () => {
    const httpRecord = join(temp.dir, 'v1-http-split.jsonl');
    asHttpRecord(v1Record, httpRecord, (_entry, exchange) => (exchange === 1 ? 'initialize-exchange' : '0d6f3c1e-4b7a-4c38-9a51-7f2d8e6b9a10'));
    const result = await runBin(['replay', httpRecord, '--', node, fixture('servers', 'greet-server.js')]);
    expect(result.text).toMatch(/^session initialize-exchange \(http, 2025-11-25\)\n/);
    expect(result.text).toContain('replay passed: 4 same, 0 changed, 0 missing, 0 extra');
  });

  it('--session picks one session (an unknown one: test/cli/bad-use-replay.test.ts)', async () => {
    const sessions = [...new Set(readEntries(record).map((entry) => entry.session as string))];
    const one = await runBin(['replay', record, '--session', sessions[1]!, '--', ...stdioServer]);
    expect(one.text).toContain('replay passed: 3 same');
  });
});
