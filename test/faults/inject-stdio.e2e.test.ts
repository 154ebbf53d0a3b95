// Fault injection on stdio: the SDK client and server-everything through the spy with --fault. The
// byte tap before the server shows what it was really given: an answer made in its place never reaches it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { bin, everythingServer, fixture, readEntries, runBin, tempDir } from '../helpers/spy.js';
import { recordEntry } from '../../src/record/entry-schema.js';
import { withMock } from '../helpers/http-spy.js';

/** One call of echo through the spy with these fault options: what the client got, what the server was given, the record. */
async function faulted(faultArgs: string[], timeout = 60_000) {
  const dir = tempDir().dir;
  const record = join(dir, 'wire.jsonl');
  const client = new Client({ name: 'fault-client', version: '1.0.0' });
  const clientErrors: string[] = [];
  client.onerror = (error) => clientErrors.push(error.message);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      bin,
      '--record',
      record,
      '--log',
      join(dir, 'wire.log'),
      '-q',
      ...faultArgs,
      '--',
      process.execPath,
      fixture('tap.js'),
      dir,
      'server',
      process.execPath,
      everythingServer,
      'stdio',
    ],
    env: process.env as Record<string, string>,
    stderr: 'pipe',
  });
  let spyStderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (spyStderr += chunk.toString()));
  await client.connect(transport);
  const outcome = await client.callTool({ name: 'echo', arguments: { message: 'hello' } }, undefined, { timeout }).then(
    (result) => ({ result }),
    (error: Error & { code?: number }) => ({ thrown: error.message, code: error.code }),
  );
  await client.close();
  // The spy has exited once the record's last line (the server's exit) is written.
  await expect.poll(() => existsSync(record) && readFileSync(record, 'utf8').includes('"kind":"exit"'), { timeout: 30_000 }).toBe(true);
  const entries = readEntries(record);
  for (const entry of entries) recordEntry.parse(entry);
  const serverIn = existsSync(join(dir, 'server.in')) ? readFileSync(join(dir, 'server.in'), 'utf8') : '';
  const check = await runBin(['check', record]);
  return { outcome, clientErrors, serverIn, entries, check, spyStderr, record, log: readFileSync(join(dir, 'wire.log'), 'utf8') };
}

const faultsOf = (entries: ReturnType<typeof readEntries>) => entries.filter((entry) => entry.kind === 'fault');
const echoCalls = (serverIn: string) => serverIn.split('\n').filter((line) => line.includes('"tools/call"'));

describe('--fault on stdio, the SDK client and server-everything', () => {
  it("tool-error answers in the server's place: the client sees isError, the server never gets the call, the record says so", async () => {
    const run = await faulted(['--fault', 'tools/call tool=echo: tool-error "disk full"']);
    expect(run.outcome).toEqual({ result: { content: [{ type: 'text', text: 'disk full' }], isError: true } });
    expect(echoCalls(run.serverIn)).toEqual([]);
    expect(run.serverIn).toContain('"initialize"');
    const [fault] = faultsOf(run.entries);
    expect(fault).toMatchObject({
      kind: 'fault',
      rule: 'tools/call tool=echo: tool-error "disk full"',
      action: 'tool-error',
      stream: 'c2s',
      method: 'tools/call',
      tool: 'echo',
    });
    const made = run.entries.find((entry) => entry.dir === 's2c' && entry.kind === 'tool-error');
    expect(made).toMatchObject({ origin: 'spy', fault: 'tools/call tool=echo: tool-error "disk full"', method: 'tools/call', tool: 'echo' });
    expect(run.entries.find((entry) => entry.dir === 'c2s' && entry.method === 'tools/call')).toMatchObject({ fault: expect.any(String) });
    expect(run.check.code).toBe(0);
    expect(run.log).toMatch(/FAULT +tool-error tools\/call/);
    expect(run.log).toContain('(injected by mcp-spy)');
    expect(run.spyStderr).toMatch(/injecting faults: 1 rule\(s\), --seed \d+/);
    // stats keeps the injected answer out of the server's counts and lists the fault apart.
    const stats = JSON.parse((await runBin(['stats', run.record, '--format', 'json'])).text) as {
      faults: unknown;
      tools: Record<string, { toolErrors: number }>;
    };
    expect(stats.faults).toEqual({ count: 1, rules: { 'tools/call tool=echo: tool-error "disk full"': 1 } });
    expect(stats.tools.echo?.toolErrors ?? 0).toBe(0);
    expect((await runBin(['stats', run.record])).text).toContain('Injected faults');
  });

  it('error answers with the code and message; the server never gets the call', async () => {
    const run = await faulted(['--fault', 'tools/call: error -32603 "backend down"']);
    expect(run.outcome).toMatchObject({ code: -32603, thrown: expect.stringContaining('backend down') });
    expect(echoCalls(run.serverIn)).toEqual([]);
    expect(run.entries.find((entry) => entry.kind === 'protocol-error')).toMatchObject({ origin: 'spy', error: { code: -32603, message: 'backend down' } });
    expect(run.check.code).toBe(0);
  });

  it('delay holds the call, then passes it on: the server answers, late', async () => {
    const started = Date.now();
    const run = await faulted(['--fault', 'tools/call: delay 1500ms']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    expect(run.outcome).toEqual({ result: { content: [{ type: 'text', text: 'Echo: hello' }] } });
    expect(echoCalls(run.serverIn)).toHaveLength(1);
    expect(faultsOf(run.entries)[0]).toMatchObject({ action: 'delay', text: expect.stringMatching(/^held 1500ms/) });
    expect(run.check.code).toBe(0);
  });

  it('drop delivers the call to no one: the client times out, the server never gets it, check does not call it unanswered', async () => {
    const run = await faulted(['--fault', 'tools/call: drop'], 1500);
    expect(run.outcome).toMatchObject({ code: -32001 });
    expect(echoCalls(run.serverIn)).toEqual([]);
    expect(run.check.code).toBe(0);
  });

  it('timeout holds the call until the client cancels it; neither the call nor its cancellation reaches the server', async () => {
    const run = await faulted(['--fault', 'tools/call: timeout'], 1500);
    expect(run.outcome).toMatchObject({ code: -32001 });
    expect(echoCalls(run.serverIn)).toEqual([]);
    expect(run.serverIn).not.toContain('notifications/cancelled');
    expect(faultsOf(run.entries).map((fault) => fault.text)).toEqual([expect.stringMatching(/^held unanswered/), expect.stringMatching(/was cancelled/)]);
    expect(run.check.code).toBe(0);
  });

  it.each([
    ['invalid-json', /JSON/],
    ['cut', /JSON/],
    ['wrong-id', /unknown message ID/],
  ])('corrupt %s spoils the answer: the client fails to read it, the record keeps the original beside it', async (mode, clientError) => {
    const run = await faulted(['--fault', `tools/call: corrupt ${mode}`], 1500);
    expect(run.outcome).toMatchObject({ code: -32001 });
    expect(run.clientErrors.join('\n')).toMatch(clientError);
    expect(echoCalls(run.serverIn)).toHaveLength(1);
    const spoiled = run.entries.find((entry) => entry.dir === 's2c' && entry.origin === 'spy');
    expect(JSON.parse(String(spoiled?.original))).toMatchObject({ result: { content: [{ type: 'text', text: 'Echo: hello' }] } });
    expect(run.check.code).toBe(0);
  });

  it("disconnect closes the server's stdio: the client sees the connection close, the server never gets the call", async () => {
    const run = await faulted(['--fault', 'tools/call: disconnect']);
    expect(run.outcome).toMatchObject({ code: -32000, thrown: expect.stringMatching(/Connection closed/) });
    expect(echoCalls(run.serverIn)).toEqual([]);
    expect(faultsOf(run.entries)[0]).toMatchObject({ action: 'disconnect' });
    expect(run.check.code).toBe(0);
  });

  it('noise puts a banner on stdout before the call; the answer still comes', async () => {
    const run = await faulted(['--fault', 'tools/call: noise "server warming up"']);
    expect(run.outcome).toEqual({ result: { content: [{ type: 'text', text: 'Echo: hello' }] } });
    expect(run.clientErrors.join('\n')).toContain('server warming up');
    expect(run.entries.find((entry) => entry.kind === 'invalid')).toMatchObject({ origin: 'spy', raw: 'server warming up' });
    expect(run.check.code).toBe(0);
  });

  it('nth and --faults: only the named call is faulted', async () => {
    const dir = tempDir();
    const file = dir.file('chaos.yaml', 'seed: 7\nfaults:\n  - method: tools/call\n    tool: echo\n    nth: 2\n    action: tool-error "second"\n');
    const run = await faulted(['--faults', file]);
    expect(run.outcome).toEqual({ result: { content: [{ type: 'text', text: 'Echo: hello' }] } });
    expect(faultsOf(run.entries)).toEqual([]);
    expect(run.spyStderr).toContain('--seed 7');
  });
});

describe('replay of a faulted recording', () => {
  it.each([
    ['tools/call: tool-error "x"', ['initialize']],
    ['tools/call: timeout', ['initialize']],
    ['tools/call: corrupt', ['initialize', 'tools/call']],
    ['tools/call: noise', ['initialize', 'tools/call']],
  ])('%s: compares with what the server really said, leaving out what the spy made or held back', async (rule, compared) => {
    const run = await faulted(['--fault', rule], 1500);
    const replay = await runBin(['replay', run.record, '--format', 'json', '--', process.execPath, everythingServer, 'stdio']);
    expect(replay.code).toBe(0);
    const result = JSON.parse(replay.text) as { counts: Record<string, number>; sessions: { items: { method: string; status: string }[] }[] };
    expect(result.sessions[0]!.items.map((item) => [item.method, item.status])).toEqual(compared.map((method) => [method, 'same']));
  });
});

/** One echo call against `mcp-spy mock RECORD ...args`: what the client got. */
async function mocked(record: string, args: string[]) {
  const client = new Client({ name: 'fault-client', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [bin, 'mock', record, ...args], env: process.env as Record<string, string>, stderr: 'ignore' }),
  );
  const outcome = await client.callTool({ name: 'echo', arguments: { message: 'hello' } }, undefined, { timeout: 1500 }).then(
    (result) => ({ result }),
    (error: Error & { code?: number }) => ({ thrown: error.message, code: error.code }),
  );
  await client.close();
  return outcome;
}

describe('mock --fault', () => {
  it('takes the same rules: the recorded server misbehaves on cue', async () => {
    const { record } = await faulted([]);
    expect(await mocked(record, [])).toEqual({ result: { content: [{ type: 'text', text: 'Echo: hello' }] } });
    expect(await mocked(record, ['--fault', 'tools/call tool=echo: tool-error "disk full"'])).toEqual({
      result: { content: [{ type: 'text', text: 'disk full' }], isError: true },
    });
    expect(await mocked(record, ['--fault', 'tools/call: error -32603 "backend down"'])).toMatchObject({ code: -32603 });
    expect(await mocked(record, ['--fault', 'tools/call: drop'])).toMatchObject({ code: -32001 });
    expect(await mocked(record, ['--fault', 'tools/call: disconnect'])).toMatchObject({ code: -32000 });
  });

  it('over HTTP (--listen) too, with the HTTP actions', async () => {
    const { record } = await faulted([]);
    const overHttp = (flags: string[]) => withMock(record, (url) => mockedOverHttp(url), flags);
    expect(await overHttp([])).toEqual({ result: { content: [{ type: 'text', text: 'Echo: hello' }] } });
    expect(await overHttp(['--fault', 'tools/call tool=echo: tool-error "disk full"'])).toEqual({
      result: { content: [{ type: 'text', text: 'disk full' }], isError: true },
    });
    expect(await overHttp(['--fault', 'tools/call: error -32603 "backend down"'])).toMatchObject({ code: -32603 });
    expect(await overHttp(['--fault', 'tools/call: drop'])).toMatchObject({ code: -32001 });
    expect(await overHttp(['--fault', 'tools/call: status 429 retry-after=2'])).toMatchObject({ code: 429 });
    expect(await overHttp(['--fault', 'tools/call: expire-session'])).toMatchObject({ code: 404 });
    expect(await overHttp(['--fault', 'tools/call: disconnect'])).toMatchObject({ thrown: expect.stringMatching(/fetch failed|socket|reset/i) });
    // The echo, late by the rule's delay, is still the recorded answer.
    const started = Date.now();
    expect(await overHttp(['--fault', 'tools/call: delay 1s'])).toEqual({ result: { content: [{ type: 'text', text: 'Echo: hello' }] } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    // The answer reshaped (here an SSE stream, the recorded messages before it): spoiled, after noise, cut before it, late.
    expect(await overHttp(['--fault', 'tools/call: corrupt'])).toMatchObject({ code: -32001 });
    expect(await overHttp(['--fault', 'tools/call: noise "banner"'])).toEqual({ result: { content: [{ type: 'text', text: 'Echo: hello' }] } });
    expect(await overHttp(['--fault', 'tools/call: cut-stream'])).toMatchObject({ code: -32001 });
    // Two events (the notification, the answer), each held a second: the client is given longer.
    const slowStarted = Date.now();
    expect(await withMock(record, (url) => mockedOverHttp(url, 30_000), ['--fault', 'tools/call: slow-stream 1s'])).toEqual({
      result: { content: [{ type: 'text', text: 'Echo: hello' }] },
    });
    expect(Date.now() - slowStarted).toBeGreaterThanOrEqual(2000);
    // What has no meaning on HTTP is refused with one line.
    const noise = await runBin(['mock', record, '--listen', '127.0.0.1:0', '--fault', 'tools/call: noise stderr "x"']);
    expect(noise.code).toBe(2);
    expect(noise.stderr.trim()).toBe(
      `mcp-spy: 'tools/call: noise stderr "x"': noise stderr is for stdio: on HTTP noise goes into the answer (write noise "text")`,
    );
  });
});

/** One echo call against the mock at `url` over Streamable HTTP: what the client got. */
async function mockedOverHttp(url: string, timeout = 1500) {
  const client = new Client({ name: 'fault-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const outcome = await client.callTool({ name: 'echo', arguments: { message: 'hello' } }, undefined, { timeout }).then(
    (result) => ({ result }),
    (error: Error & { code?: number }) => ({ thrown: error.message, code: error.code }),
  );
  await client.close().catch(() => {});
  return outcome;
}

describe('bad rules', () => {
  it('say one line per mistake and exit 2 before the server starts', async () => {
    const dir = tempDir();
    const file = dir.file('chaos.yaml', 'faults:\n  - "tools/call: explode"\n');
    const run = await runBin([
      '--fault',
      'tools/call delay 3s',
      '--fault',
      'tools/call: status 429',
      '--faults',
      file,
      '--',
      process.execPath,
      '-e',
      'require("fs").writeFileSync(process.argv[1], "ran")',
      join(dir.dir, 'ran'),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^mcp-spy: .*chaos\.yaml: faults\[0\]: unknown action explode/),
      expect.stringMatching(/^mcp-spy: --fault 'tools\/call delay 3s': a rule is MATCH: ACTION/),
      "mcp-spy: 'tools/call: status 429': status is for http, not stdio",
    ]);
    expect(existsSync(join(dir.dir, 'ran'))).toBe(false);
  });
});
