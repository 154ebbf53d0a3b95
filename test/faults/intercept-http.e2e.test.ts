// --intercept on the HTTP spy: the SDK client, `mcp-spy http --intercept` in front of a plain spy in
// front of server-everything (Streamable HTTP); the plain spy's record is what really reached the server.
import { join } from 'node:path';
import { statSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { everythingHttp, freePort, startSpy, eventually, type Spy } from '../helpers/http-spy.js';
import { readEntries, tempDir } from '../helpers/spy.js';
import { controlClient, controlSocketIn } from '../helpers/intercept.js';

let inner: Spy;
beforeAll(async () => {
  const port = await freePort();
  inner = await startSpy(['--target', `http://127.0.0.1:${port}/mcp`], everythingHttp('streamableHttp')(port));
});
afterAll(async () => {
  await inner?.dispose();
});

describe('mcp-spy http --intercept, the SDK client and server-everything', () => {
  it('holds a POSTed tools/call until it is edited, answered with an error or dropped over the control socket', async () => {
    const temp = tempDir('mcp-spy-intercept-http-');
    onTestFinished(temp.remove);
    const sessions = join(temp.dir, 'sessions');
    const outer = await startSpy(['--target', inner.url, '--intercept', 'tool = "echo"'], [], { MCP_SPY_DIR: sessions });
    onTestFinished(() => void outer.dispose());
    const path = await controlSocketIn(sessions);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const control = await controlClient(path);
    onTestFinished(control.close);
    const client = new Client({ name: 'intercept-http-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(outer.url)));
    const call = (message: string, timeout = 30_000) =>
      client.callTool({ name: 'echo', arguments: { message } }, undefined, { timeout }).then(
        (result) => ({ result }),
        (error: Error & { code?: number }) => ({ code: error.code, thrown: error.message }),
      );

    const edited = call('hello over http');
    const first = await control.held('c2s');
    expect(first).toMatchObject({ method: 'tools/call', tool: 'echo', kind: 'request' });
    expect(await control.send({ op: 'edit', hold: first.hold, frame: '{"jsonrpc":"2.0"' })).toMatchObject({ ok: false });
    expect(await control.send({ op: 'edit', hold: first.hold, frame: first.frame.replace('hello over http', 'edited over http') })).toMatchObject({ ok: true });
    expect(await edited).toEqual({ result: { content: [{ type: 'text', text: 'Echo: edited over http' }] } });

    const refused = call('refuse over http');
    const second = await control.held('c2s');
    expect(await control.send({ op: 'error', hold: second.hold, code: -32000, message: 'not over http' })).toMatchObject({ ok: true });
    expect(await refused).toMatchObject({ code: -32000 });

    const dropped = call('drop over http', 2_000);
    const third = await control.held('c2s');
    expect(await control.send({ op: 'drop', hold: third.hold })).toMatchObject({ ok: true });
    expect(await dropped).toMatchObject({ code: -32001 });
    await client.close().catch(() => {});

    const reached = (text: string) => inner.entries().some((entry) => entry.method === 'tools/call' && JSON.stringify(entry.msg ?? '').includes(text));
    await eventually(() => reached('edited over http') || undefined);
    expect(reached('hello over http')).toBe(false);
    expect(reached('refuse over http')).toBe(false);
    expect(reached('drop over http')).toBe(false);
    // With MCP_SPY_DIR set, the record goes there too.
    const entries = readEntries(join(sessions, 'wire.jsonl'));
    expect(entries.filter((entry) => entry.kind === 'intercept').map((entry) => entry.action)).toEqual(['hold', 'edit', 'hold', 'error', 'hold', 'drop']);
    expect(entries.find((entry) => entry.dir === 'c2s' && entry.origin === 'spy')).toMatchObject({ intercept: 'tool = "echo"', original: first.frame });
    expect(entries.find((entry) => entry.dir === 's2c' && entry.kind === 'protocol-error')).toMatchObject({ origin: 'spy', intercept: 'tool = "echo"' });
  });
});
