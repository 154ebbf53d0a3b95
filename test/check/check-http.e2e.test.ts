// Real recordings of the HTTP spy, reviewed: the SDK 1.x client against server-everything in its
// Streamable HTTP and legacy HTTP+SSE modes, and a 2026-07-28 session (v2 client in auto mode) against
// the v2 fixture server. Each checks clean, and views as the wire.log the spy wrote live.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingHttp, recordHttp, v2Http } from '../helpers/http-spy.js';
import { fixture, runBin, tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-check-http-');
afterAll(() => temp.remove());

const sessions = {
  'Streamable HTTP (SDK 1.x client, server-everything)': {
    path: '/mcp',
    server: everythingHttp('streamableHttp'),
    client: { script: 'everything-client.js', flag: '--url' },
  },
  'legacy HTTP+SSE (SDK 1.x client, server-everything)': {
    path: '/sse',
    server: everythingHttp('sse'),
    client: { script: 'everything-client.js', flag: '--sse' },
  },
  '2026-07-28 stateless HTTP (SDK v2 client in auto mode, v2 server)': {
    path: '/mcp',
    server: (port: number) => v2Http(port),
    client: { script: 'v2-client.js', flag: '--url' },
  },
} as const;

const recorded: Record<string, { record: string; log: string }> = {};

beforeAll(async () => {
  // One after the other: each is a client, a spy and a server on a machine that may have two cores.
  for (const [name, { path, server, client }] of Object.entries(sessions)) {
    const dir = join(temp.dir, String(Object.keys(recorded).length));
    mkdirSync(dir);
    recorded[name] = await recordHttp(dir, path, server, { ...client, env: { SCENARIO: 'review' } });
  }
}, 120_000);

describe.each(Object.keys(sessions))('a real %s recording', (name) => {
  it('checks clean', async () => {
    const result = await runBin(['check', recorded[name]!.record]);
    expect(result.text).toMatch(/clean \(0 errors, 0 warnings in \d+ entries\)/);
    expect(result.code).toBe(0);
  });

  it('views byte for byte as the wire.log the spy wrote live', async () => {
    const view = await runBin(['view', recorded[name]!.record]);
    expect(view.code).toBe(0);
    expect(view.stdout.equals(readFileSync(recorded[name]!.log))).toBe(true);
  });
});

describe('what the real recordings hold', () => {
  it('Streamable HTTP: one session, http events beside the frames, the server asking the client', async () => {
    const stats = JSON.parse((await runBin(['stats', recorded[Object.keys(sessions)[0]!]!.record, '--format', 'json'])).text);
    expect(stats.sessions).toHaveLength(1);
    expect(stats.sessions[0]).toMatchObject({ revision: '2025-11-25', client: { name: 'fixture-client' } });
    expect(stats.kinds.http).toBeGreaterThan(0);
    expect(Object.keys(stats.methods)).toEqual(
      expect.arrayContaining(['sampling/createMessage', 'roots/list', 'notifications/progress', 'completion/complete']),
    );
  });

  it('2026-07-28: every exchange a session of its own, each naming the server (a tool error too)', async () => {
    const stats = JSON.parse((await runBin(['stats', recorded[Object.keys(sessions)[2]!]!.record, '--format', 'json'])).text);
    expect(stats.sessions.length).toBe(9);
    for (const session of stats.sessions) expect(session).toMatchObject({ revision: '2026-07-28', server: { name: 'mcp-spy-v2-fixture' } });
    expect(stats.tools.fail).toMatchObject({ count: 1, toolErrors: 1 });
  });
});

describe('tool arguments on stateless HTTP', () => {
  // Each exchange is a session of its own: the call is checked against what an earlier exchange listed.
  it.each([
    [
      'SDK 1.x client, stateless SDK 1.x server',
      (port: number) => [process.execPath, fixture('http', 'stateless-server.js'), '--port', String(port)],
      'everything-client.js',
      'sleep',
      '/ms must be number',
    ],
    ['2026-07-28: SDK v2 client, v2 server', (port: number) => v2Http(port), 'v2-client.js', 'add', '/a must be number'],
  ])(
    'are checked against what an earlier exchange listed (%s)',
    async (_name, server, script, tool, why) => {
      const dir = join(temp.dir, `stateless-arguments-${tool}`);
      mkdirSync(dir);
      const { record } = await recordHttp(dir, '/mcp', server, { script, flag: '--url', env: { SCENARIO: 'bad-arguments' } });
      const result = await runBin(['check', record]);
      expect(result.text).toContain(`error tool-arguments-schema: arguments of tool ${tool} do not match its inputSchema: ${why}`);
      expect(result.code).toBe(1);
    },
    60_000,
  );
});
