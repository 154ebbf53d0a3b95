// --intercept on stdio, driven over its control socket as the console drives it: the SDK client and
// server-everything through the spy, a byte tap before the server showing what it was really given.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { bin, everythingServer, fixture, readEntries, runBin, tempDir } from '../helpers/spy.js';
import { controlClient, controlSocketIn } from '../helpers/intercept.js';

/** The SDK client connected through a spy with these options, its record in a sessions directory of its own. */
async function intercepted(spyArgs: string[]) {
  const temp = tempDir('mcp-spy-intercept-');
  onTestFinished(temp.remove);
  const sessions = join(temp.dir, 'sessions');
  const client = new Client({ name: 'intercept-client', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      bin,
      '--client',
      'test',
      '--name',
      'everything',
      '-q',
      ...spyArgs,
      '--',
      process.execPath,
      fixture('tap.js'),
      temp.dir,
      'server',
      process.execPath,
      everythingServer,
      'stdio',
    ],
    env: { ...process.env, MCP_SPY_DIR: sessions } as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  const record = () => join(sessions, readdirSync(sessions).find((name) => name.endsWith('.jsonl'))!);
  /** Closes the client and waits for the spy to finish its record. */
  const finish = async () => {
    await client.close();
    await expect.poll(() => readFileSync(record(), 'utf8').includes('"kind":"exit"'), { timeout: 30_000 }).toBe(true);
    return readEntries(record());
  };
  const serverIn = () => readFileSync(join(temp.dir, 'server.in'), 'utf8');
  return { client, sessions, record, finish, serverIn, stderr: () => stderr };
}

const echo = (client: Client, message: string, timeout = 60_000) =>
  client.callTool({ name: 'echo', arguments: { message } }, undefined, { timeout }).then(
    (result) => ({ result }),
    (error: Error & { code?: number }) => ({ thrown: error.message, code: error.code }),
  );

describe('--intercept on stdio, released over the control socket', () => {
  it('holds a tools/call until it is edited and let go; bad edits are refused; drop and error answer the client; the record says who did what', async () => {
    const run = await intercepted(['--intercept', 'tool = "echo"']);
    const path = await controlSocketIn(run.sessions);
    // Named after the run's record, beside it, and only its user may open it.
    expect(path.replace(/\.sock$/, '.jsonl')).toBe(run.record());
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const control = await controlClient(path);
    onTestFinished(control.close);
    const hello = await control.next((message) => message.type === 'hello');
    expect(hello).toMatchObject({ filter: 'tool = "echo"', transport: 'stdio', record: run.record(), held: [] });

    const answer = echo(run.client, 'hello from the test');
    const call = await control.held('c2s');
    expect(call).toMatchObject({ hold: 1, kind: 'request', method: 'tools/call', tool: 'echo' });
    expect(run.serverIn()).not.toContain('"tools/call"');

    // Edits that are not a JSON-RPC message are refused, each with why; the frame stays held.
    expect(await control.send({ op: 'edit', hold: 1, frame: '{"jsonrpc":"2.0","id":' })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^the edited frame is not JSON: /),
    });
    expect(await control.send({ op: 'edit', hold: 1, frame: '{"id":2,"params":{}}' })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^the edited frame is not valid JSON-RPC: not a JSON-RPC 2.0 message/),
    });
    expect(await control.send({ op: 'forward', hold: 7 })).toMatchObject({
      ok: false,
      message: 'no frame #7 is held (it was released already, or never held)',
    });
    const edited = call.frame.replace('hello from the test', 'edited at the intercept');
    expect(await control.send({ op: 'edit', hold: 1, frame: JSON.stringify(JSON.parse(edited), null, 2) })).toMatchObject({ ok: true });

    // The answer matches the filter too (it carries its request's tool): held, and let go as it is.
    const reply = await control.held('s2c');
    expect(reply).toMatchObject({ kind: 'response', method: 'tools/call', tool: 'echo' });
    expect(await control.send({ op: 'error', hold: reply.hold })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^only a request can be answered with an error/),
    });
    expect(await control.send({ op: 'forward', hold: reply.hold })).toMatchObject({ ok: true });
    expect(await answer).toEqual({ result: { content: [{ type: 'text', text: 'Echo: edited at the intercept' }] } });
    expect(run.serverIn()).toContain('edited at the intercept');
    expect(run.serverIn()).not.toContain('hello from the test');

    // Dropped: the server never gets it, the client hears nothing (and gives up).
    const dropped = echo(run.client, 'dropped at the intercept', 3_000);
    const third = await control.held('c2s');
    expect(await control.send({ op: 'drop', hold: third.hold })).toMatchObject({ ok: true });
    expect(await dropped).toMatchObject({ code: -32001 });
    // Its cancellation is a notification the filter does not match: it goes on.
    await expect.poll(() => run.serverIn(), { timeout: 30_000 }).toContain('notifications/cancelled');
    expect(run.serverIn()).not.toContain('dropped at the intercept');

    // Answered with an error in the server's place: the client gets it, the server never the call.
    const refused = echo(run.client, 'refused at the intercept');
    const fourth = await control.held('c2s');
    expect(await control.send({ op: 'error', hold: fourth.hold, code: -32000, message: 'not today' })).toMatchObject({ ok: true });
    expect(await refused).toMatchObject({ code: -32000, thrown: expect.stringContaining('not today') });
    expect(run.serverIn()).not.toContain('refused at the intercept');

    const entries = await run.finish();
    expect(existsSync(path)).toBe(false);
    const events = entries.filter((entry) => entry.kind === 'intercept');
    expect(events.map((event) => `${event.action} #${event.hold}${event.by ? ` by ${event.by}` : ''}`)).toEqual([
      'hold #1',
      'edit #1 by console',
      'hold #2',
      'forward #2 by console',
      'hold #3',
      'drop #3 by console',
      'hold #4',
      'error #4 by console',
    ]);
    expect(events[1]).toMatchObject({ filter: 'tool = "echo"', stream: 'c2s', method: 'tools/call', tool: 'echo', heldMs: expect.any(Number) });
    const sent = entries.find((entry) => entry.dir === 'c2s' && entry.method === 'tools/call' && entry.origin === 'spy');
    expect(sent).toMatchObject({ intercept: 'tool = "echo"', original: call.frame });
    expect(JSON.stringify(sent!.msg)).toContain('edited at the intercept');
    const made = entries.find((entry) => entry.dir === 's2c' && entry.kind === 'protocol-error');
    expect(made).toMatchObject({ origin: 'spy', intercept: 'tool = "echo"', error: { code: -32000, message: 'not today' } });
    // With a console attached, stderr says nothing of each hold.
    expect(run.stderr()).not.toContain('holding #');
    expect((await runBin(['view', run.record(), '--kind', 'intercept'])).text).toMatch(/INTERCEPT +edit #1 tools\/call tool=echo/);
    // check does not blame the server for what was done at the console: the dropped call, the made answer, the edit.
    const check = await runBin(['check', run.record()]);
    expect(check.text + check.stderr).toContain('clean');
    // stats counts the answer made at the console as no error of the server's.
    const stats = JSON.parse((await runBin(['stats', run.record(), '--format', 'json'])).text) as { methods: Record<string, { protocolErrors: number }> };
    expect(stats.methods['tools/call']).toMatchObject({ protocolErrors: 0 });
  });

  it('lets a frame nobody releases go on as it was at its bound, says on stderr what it holds, and the session completes', async () => {
    const run = await intercepted(['--intercept', 'method = "tools/call" and dir = c2s', '--hold-timeout', '1s']);
    expect(await echo(run.client, 'nobody is watching')).toEqual({ result: { content: [{ type: 'text', text: 'Echo: nobody is watching' }] } });
    const entries = await run.finish();
    expect(run.stderr()).toMatch(
      /^mcp-spy: intercepting method = "tools\/call" and dir = c2s: a matching frame is held until released in mcp-spy ui \(control socket .*\.sock\)/m,
    );
    expect(run.stderr()).toMatch(
      /^mcp-spy: holding #1 -> tools\/call tool=echo id=\d+: release it in mcp-spy ui \(forward, edit, drop, error\); it goes on as it was in 1 s$/m,
    );
    expect(run.stderr()).toMatch(/^mcp-spy: #1 held 1 s \(--hold-timeout\) with no release: passed on as it was$/m);
    expect(entries.filter((entry) => entry.kind === 'intercept').map((event) => [event.action, event.by])).toEqual([
      ['hold', undefined],
      ['forward', 'bound'],
    ]);
    expect(entries.find((entry) => entry.dir === 'c2s' && entry.method === 'tools/call')).toMatchObject({ intercept: expect.any(String) });
    expect(readdirSync(run.sessions).filter((name) => name.endsWith('.sock'))).toEqual([]);
  });

  it('holds no more than --max-held at once: the oldest goes on as it was', async () => {
    const run = await intercepted(['--intercept', 'method = "tools/call" and dir = c2s', '--max-held', '1']);
    const control = await controlClient(await controlSocketIn(run.sessions));
    onTestFinished(control.close);
    const first = echo(run.client, 'first');
    await control.held('c2s');
    const second = echo(run.client, 'second');
    await control.held('c2s');
    expect(await first).toEqual({ result: { content: [{ type: 'text', text: 'Echo: first' }] } });
    expect(control.messages).toContainEqual({ type: 'released', hold: 1, action: 'forward', by: 'bound' });
    expect(await control.send({ op: 'forward', hold: 2 })).toMatchObject({ ok: true });
    expect(await second).toEqual({ result: { content: [{ type: 'text', text: 'Echo: second' }] } });
    await run.finish();
  });
});

describe('--intercept and check', () => {
  it('does not blame the server for a request dropped at the console and never cancelled', async () => {
    const temp = tempDir('mcp-spy-intercept-');
    onTestFinished(temp.remove);
    const record = join(temp.dir, 'wire.jsonl');
    const sessions = join(temp.dir, 'sessions');
    const child = spawn(
      process.execPath,
      [bin, '--record', record, '--no-log', '-q', '--intercept', 'method = "tools/call"', '--', process.execPath, everythingServer, 'stdio'],
      {
        stdio: ['pipe', 'pipe', 'ignore'],
        env: { ...process.env, MCP_SPY_DIR: sessions },
      },
    );
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const control = await controlClient(await controlSocketIn(sessions));
    onTestFinished(control.close);
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await expect.poll(() => out, { timeout: 30_000 }).toContain('"id":1');
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/call', params: { name: 'echo', arguments: { message: 'never sent' } } });
    const held = await control.held('c2s');
    expect(await control.send({ op: 'drop', hold: held.hold })).toMatchObject({ ok: true });
    child.stdin.end();
    await new Promise((resolve) => child.once('close', resolve));
    const check = await runBin(['check', record]);
    expect(check.text + check.stderr).toContain('clean');
    expect(check.code).toBe(0);
  });
});

describe('--intercept refused, and absent', () => {
  it('refuses a filter it cannot read with one line and exit 2, before the server starts', async () => {
    const result = await runBin(['--intercept', 'tool = ', '--', process.execPath, everythingServer, 'stdio']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("mcp-spy: --intercept 'tool = ': expected a value after '=' at column 8\n");
  });

  it('refuses --intercept beside fault rules, with one line and exit 2', async () => {
    const result = await runBin(['--intercept', 'tool = "echo"', '--fault', 'tools/call: drop', '--', process.execPath, everythingServer, 'stdio']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('mcp-spy: --intercept and --fault (or --faults) cannot be used together: run with one or the other\n');
  });

  it('makes no socket without --intercept', async () => {
    const run = await intercepted([]);
    expect(await echo(run.client, 'plain')).toEqual({ result: { content: [{ type: 'text', text: 'Echo: plain' }] } });
    await run.finish();
    expect(readdirSync(run.sessions).filter((name) => !name.endsWith('.jsonl'))).toEqual([]);
  });
});
