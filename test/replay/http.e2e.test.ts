// replay and mock on real recordings of the HTTP spy (not hand-made HTTP-shaped records): the SDK 1.x
// client against server-everything over Streamable HTTP, and a 2026-07-28 session over stateless HTTP
// (a stdio recording replayed with --target: everything.e2e.test.ts).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingHttp, recordHttp, v2Http, withMock, withServer } from '../helpers/http-spy.js';
import { everythingServer, node, runBin, runClient, tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-replay-http-');
const dirOf = (name: string) => {
  const dir = join(temp.dir, name);
  mkdirSync(dir);
  return dir;
};
let everything: { record: string; results: unknown };
let v2: { record: string; results: unknown };
let legacy: { record: string; results: unknown };

beforeAll(async () => {
  everything = await recordHttp(dirOf('everything'), '/mcp', everythingHttp('streamableHttp'), { script: 'everything-client.js', flag: '--url' });
  v2 = await recordHttp(dirOf('v2'), '/mcp', (port) => v2Http(port), { script: 'v2-client.js', flag: '--url' });
  legacy = await recordHttp(dirOf('legacy'), '/sse', everythingHttp('sse'), { script: 'everything-client.js', flag: '--sse' });
}, 120_000);
afterAll(() => temp.remove());

const withEverything = (use: (url: string) => Promise<void>) =>
  withServer(everythingHttp('streamableHttp'), /listening on port/, (port) => use(`http://127.0.0.1:${port}/mcp`));

describe('a real Streamable HTTP recording (SDK 1.x client, server-everything)', () => {
  it('replays against a fresh server-everything (--target) with the default ignores only', async () => {
    await withEverything(async (url) => {
      const result = await runBin(['replay', everything.record, '--target', url]);
      // The server's requests to the client (sampling, roots) are answered from the recording and count as items.
      expect(result.text).toMatch(/^session [0-9a-f-]{36} \(http, 2025-11-25\)\n/);
      expect(result.text).toMatch(/\[server-request\][\s\S]*replay passed: 10 same, 0 changed, 0 missing, 0 extra/);
      expect(result.code).toBe(0);
    });
  });

  it('replays against server-everything over stdio too', async () => {
    const result = await runBin(['replay', everything.record, '--', node, everythingServer, 'stdio']);
    expect(result.text).toContain('replay passed: 10 same, 0 changed, 0 missing, 0 extra');
    expect(result.code).toBe(0);
  });

  it('mock --listen answers the client script with the recorded results', async () => {
    expect(await withMock(everything.record, (url) => runClient('everything-client.js', ['--url', url]))).toEqual(everything.results);
  });
});

describe('a real legacy HTTP+SSE recording (SDK 1.x SSE client, server-everything sse)', () => {
  const withLegacy = (use: (port: number) => Promise<void>) => withServer(everythingHttp('sse'), /running on port/, use);

  it('replays against a fresh legacy server (--target): the refused POST leads to its stream and endpoint', async () => {
    await withLegacy(async (port) => {
      const result = await runBin(['replay', legacy.record, '--format', 'json', '--target', `http://127.0.0.1:${port}/sse`]);
      const items: { method: string; status: string }[] = JSON.parse(result.text).sessions[0].items;
      // server-everything asks for the roots when a tool does and from a timer: once or twice, as timing has it.
      const steady = items.filter((item) => item.method !== 'roots/list').map((item) => `${item.method} ${item.status}`);
      expect(steady).toEqual([
        'initialize same',
        'tools/list same',
        'tools/call same',
        'tools/call same',
        'tools/call same',
        'sampling/createMessage same',
        'tools/call same',
        'prompts/list same',
        'prompts/get same',
      ]);
      expect(items.filter((item) => item.method === 'roots/list' && item.status === 'same').length).toBeGreaterThan(0);
    });
  });

  it('stops at a refused initialize with one line saying why, instead of sending the rest', async () => {
    await withEverything(async (url) => {
      const result = await runBin(['replay', legacy.record, '--target', url.replace(/\/mcp$/, '/nowhere')]);
      expect(result.stderr).toBe(
        'mcp-spy: the server refused initialize, so the replay stopped there: HTTP 404 Not Found; its GET is no HTTP+SSE stream either (HTTP 404, text/html)\n',
      );
      expect(result.text).toBe('');
      expect(result.code).toBe(1);
    });
  });
});

describe('a real 2026-07-28 stateless HTTP recording (SDK v2 client, v2 server)', () => {
  it('replays as one run against a fresh v2 server, and catches a change', async () => {
    const ready = /listening on (http:\/\/\S+)/;
    await withServer(
      (port) => v2Http(port),
      ready,
      async (port) => {
        const result = await runBin(['replay', v2.record, '--format', 'json', '--target', `http://127.0.0.1:${port}/mcp`]);
        const report = JSON.parse(result.text);
        // Each exchange is a session of its own in the record; the discover probe and the exchanges after it replay as one.
        expect(report.sessions).toHaveLength(1);
        expect(report.sessions[0]).toMatchObject({ session: 'x-1', transport: 'http', revision: '2026-07-28', probe: false });
        expect(report.counts).toEqual({ same: 4, changed: 0, missing: 0, extra: 0 });
        expect(result.code).toBe(0);
      },
    );
    await withServer(
      (port) => v2Http(port, '--changed'),
      ready,
      async (port) => {
        const result = await runBin(['replay', v2.record, '--target', `http://127.0.0.1:${port}/mcp`]);
        expect(result.text).toMatch(/result\.content\[0\]\.text: "Hello, Ada!" -> "Hi there, Ada\."/);
        expect(result.code).toBe(1);
      },
    );
  });

  it('mock --listen answers the v2 client with the recorded results', async () => {
    expect(await withMock(v2.record, (url) => runClient('v2-client.js', ['--url', url]))).toEqual(v2.results);
  });
});

describe('texts that quote the session id (server-everything over HTTP)', () => {
  it('replay maps the recorded Mcp-Session-Id to the live one inside texts: the default ignores suffice', async () => {
    const toggles = await recordHttp(dirOf('toggles'), '/mcp', everythingHttp('streamableHttp'), {
      script: 'everything-client.js',
      flag: '--url',
      env: { SCENARIO: 'toggles' },
    });
    const recorded = JSON.stringify(toggles.results);
    expect(recorded).toMatch(/for session [0-9a-f-]{36}/);
    await withEverything(async (url) => {
      const result = await runBin(['replay', toggles.record, '--target', url]);
      expect(result.text).toMatch(
        /same {4}#\d+ tools\/call toggle-subscriber-updates \(id 1\) \d+ms\n {2}same {4}#\d+ tools\/call toggle-subscriber-updates \(id 2\) \d+ms\n/,
      );
      expect(result.text).toContain('replay passed: 3 same, 0 changed, 0 missing, 0 extra');
      expect(result.code).toBe(0);
    });
  });
});
