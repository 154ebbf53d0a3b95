import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, framesOf, node, readEntries, recordSession, runBinSync, tempDir, type TestEntry } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-rounds-');
afterAll(() => temp.remove());
const server = [node, fixture('v2', 'rounds-server.js')];

describe('a 2026-07-28 call with an elicitation round (the v2 SDK multi-round-trip flow)', () => {
  const record = join(temp.dir, 'rounds.jsonl');
  const log = join(temp.dir, 'rounds.log');
  let session: TestEntry[];
  beforeAll(async () => {
    const results = (await recordSession('rounds-client.js', record, server, {}, log)) as { deploy: { content: { text: string }[] } };
    expect(results.deploy.content[0]!.text).toBe('deployed to prod');
    const frames = framesOf(readEntries(record));
    session = frames.filter((entry) => entry.method === 'tools/call');
  });

  it('is recorded as one linked call: the retry points at the first request, with its round', () => {
    expect(session.map((entry) => [entry.dir, entry.kind, entry.id])).toEqual([
      ['c2s', 'request', 0],
      ['s2c', 'response', 0],
      ['c2s', 'request', 1],
      ['s2c', 'response', 1],
    ]);
    const [first, asked, retry, done] = session as [TestEntry, TestEntry, TestEntry, TestEntry];
    expect(asked.related).toEqual({ seq: first.seq, id: 0, method: 'tools/call', tool: 'deploy' });
    expect(retry.related).toEqual({ seq: first.seq, id: 0, method: 'tools/call', tool: 'deploy', round: 2 });
    expect(done.related).toEqual({ seq: retry.seq, id: 1, method: 'tools/call', tool: 'deploy', round: 2 });
    expect(retry.notes).toBeUndefined();
  });

  it('renders its rounds in view, the same as wire.log', () => {
    const view = runBinSync(['view', record]).text;
    expect(view).toMatch(
      /<- response {4}tools\/call #0 tool=deploy .*input required: confirm \(elicitation\/create "Deploy to prod\?"\) requestState "deploy:prod:/,
    );
    expect(view).toMatch(/-> request {5}tools\/call #1 tool=deploy round 2 of #0 /);
    expect(view).toMatch(/<- response {4}tools\/call #1 tool=deploy round 2 [\d.]+ms "deployed to prod"/);
    expect(view).toBe(readFileSync(log, 'utf8'));
  });

  it('stats: the latency of the whole call and of each round', () => {
    const stats = JSON.parse(runBinSync(['stats', record, '--format', 'json']).text);
    expect(stats.multiRoundCalls).toHaveLength(1);
    const [call] = stats.multiRoundCalls;
    expect(call).toMatchObject({ id: 0, method: 'tools/call', tool: 'deploy', rounds: 2 });
    expect(call.roundMs).toEqual([session[1]!.latencyMs, session[3]!.latencyMs]);
    expect(call.totalMs).toBeGreaterThanOrEqual(call.roundMs[0] + call.roundMs[1]);
    expect(runBinSync(['stats', record]).text).toMatch(/Multi-round calls:\n {2}#0 tools\/call tool=deploy: 2 rounds, [\d.]+ ms in all/);
  });

  it('checks clean, and replays with exit 0: the retry carries the live server state, in order', () => {
    expect(runBinSync(['check', record]).code).toBe(0);
    const replay = runBinSync(['replay', record, '--', ...server]);
    expect(replay.text).toMatch(/same {4}#\d+ tools\/call deploy \(id 0\)[\s\S]*same {4}#\d+ tools\/call deploy \(id 1\)/);
    expect(replay.code).toBe(0);
  });
});
