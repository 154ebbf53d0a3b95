// The spy with --name writes to the sessions directory; `mcp-spy sessions` reads it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually, startSpy } from '../helpers/http-spy.js';
import { fixture, node, readEntries, runBin, tempDir } from '../helpers/spy.js';

let temp: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  temp = tempDir('mcp-spy-sessions-');
  mkdirSync(join(temp.dir, 'home'));
  env = { HOME: join(temp.dir, 'home'), XDG_STATE_HOME: join(temp.dir, 'state'), MCP_SPY_DIR: '' };
});
afterEach(() => temp.remove());

const request = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { n: 1 } })}\n`;
const echo = [node, fixture('servers', 'echo-server.js')];

describe('the sessions directory', () => {
  it('MCP_SPY_DIR moves it; the spawn entry names the client and entry; no wire.log is written', async () => {
    const dir = join(temp.dir, 'spied');
    const cwd = join(temp.dir, 'cwd');
    mkdirSync(cwd);
    const result = await runBin(['-q', '--client', 'windsurf', '--name', 'echo/1', '--', ...echo], { cwd, input: request, env: { ...env, MCP_SPY_DIR: dir } });
    expect(result.code).toBe(0);
    expect(result.text).toBe(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { n: 1 } })}\n`);
    const files = readdirSync(dir);
    expect(files).toEqual([expect.stringMatching(/^windsurf--echo_1--\d{8}T\d{9}Z-\d+\.jsonl$/)]);
    expect(readdirSync(cwd)).toEqual([]);
    expect(readEntries(join(dir, files[0]!))[0]).toMatchObject({ kind: 'spawn', client: 'windsurf', name: 'echo/1' });

    const listed = await runBin(['sessions', '--all', '--dir', dir], { env });
    expect(listed.text).toContain(`windsurf  echo/1  `);
    expect(listed.text).toMatch(/ ended {2}2 {7}0 {7}windsurf--echo_1--/);
    // The table names the file alone; the hint under it is a command that works as printed.
    expect(listed.text.endsWith(` view ${join(dir, files[0]!)})\n`)).toBe(true);
    expect(listed.text).toContain(`(in ${dir}; to see the newest: `);
  });

  it("a wrapped spy (--name) still shows its live view on stderr, the log a client keeps of the server; stdout is the server's alone", async () => {
    const dir = join(temp.dir, 'spied');
    const result = await runBin(['--client', 'cursor', '--name', 'echo', '--', ...echo], {
      input: request,
      env: { ...env, MCP_SPY_DIR: dir, FORCE_COLOR: '0' },
    });
    expect(result.code).toBe(0);
    expect(result.text).toBe(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { n: 1 } })}\n`);
    expect(result.stderr).toMatch(/^\S+ -> request +ping #1\b/m);
    expect(result.stderr).toMatch(/^\S+ <- response +ping #1\b/m);
    expect(readdirSync(dir)).toHaveLength(1);
  });

  it('a sessions directory that cannot be made costs a line; the server runs all the same', async () => {
    const blocker = join(temp.dir, 'not-a-dir');
    writeFileSync(blocker, '');
    const result = await runBin(['-q', '--name', 'echo', '--', ...echo], { input: request, env: { ...env, MCP_SPY_DIR: join(blocker, 'sessions') } });
    expect(result.code).toBe(0);
    expect(result.text).toBe(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { n: 1 } })}\n`);
    expect(result.stderr).toBe(
      `mcp-spy: the record and log are not written (cannot make ${join(blocker, 'sessions')}: ENOTDIR); the server runs all the same\n`,
    );
  });

  it('no sessions yet: says where it looked and how sessions come to be', async () => {
    const listed = await runBin(['sessions'], { env });
    expect(listed.code).toBe(0);
    expect(listed.text).toBe(
      `no sessions in ${join(temp.dir, 'state', 'mcp-spy', 'sessions')} (mcp-spy wrap puts the spy in front of a client's servers; each run of one writes a session here)\n`,
    );
    const prune = await runBin(['sessions', 'prune'], { env });
    expect(prune.code).toBe(2);
    expect(prune.stderr).toBe('mcp-spy: prune needs --keep N (per server) or --max-size SIZE (in all), or both\n');
  });

  it('the HTTP spy with --name (as wrap --http prints it) writes its session there too', async () => {
    const dir = join(temp.dir, 'spied');
    const spy = await startSpy(['--target', 'http://127.0.0.1:1/mcp', '--client', 'cursor', '--name', 'remote'], [], { ...env, MCP_SPY_DIR: dir });
    try {
      const answer = await fetch(spy.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: request,
      });
      expect(answer.status).toBe(502);
      expect(existsSync(join(spy.dir, 'wire.jsonl'))).toBe(false);
    } finally {
      await spy.dispose();
    }
    const files = readdirSync(dir);
    expect(files).toEqual([expect.stringMatching(/^cursor--remote--\d{8}T\d{9}Z-\d+\.jsonl$/)]);
    const entries = readEntries(join(dir, files[0]!));
    expect(entries[0]).toMatchObject({ kind: 'http', transport: 'http', client: 'cursor', name: 'remote' });
    expect(entries.some((entry) => entry.dir === 'c2s' && entry.method === 'ping')).toBe(true);
    const listed = await runBin(['sessions', '--format', 'json', '--dir', dir], { env });
    expect(JSON.parse(listed.text).sessions).toMatchObject([{ client: 'cursor', server: 'remote', frames: 2, errors: 1, state: 'ended' }]);
  });

  it('marks a session live while its spy runs, ended once it has exited', async () => {
    const dir = join(temp.dir, 'spied');
    const listed = async () =>
      (JSON.parse((await runBin(['sessions', '--format', 'json', '--dir', dir], { env })).text) as { sessions: { state: string; frames: number }[] }).sessions;
    let stdin: NodeJS.WritableStream | undefined;
    const running = runBin(['-q', '--name', 'echo', '--', ...echo], { env: { ...env, MCP_SPY_DIR: dir }, onStart: (child) => (stdin = child.stdin!) });
    stdin!.write(request);
    // The answer recorded: the session is under way, its spy still running (stdin open).
    await eventually(
      () => existsSync(dir) && readdirSync(dir).length === 1 && readFileSync(join(dir, readdirSync(dir)[0]!), 'utf8').includes('"kind":"response"'),
    );
    expect(await listed()).toMatchObject([{ state: 'live', frames: 2 }]);
    stdin!.end();
    expect((await running).code).toBe(0);
    expect(await listed()).toMatchObject([{ state: 'ended', frames: 2 }]);
  });
  it('prune --max-size keeps the newest sessions that fit, over all servers; --dry-run says what it would remove and removes nothing', async () => {
    const dir = join(temp.dir, 'spied');
    mkdirSync(dir);
    // Sessions of two servers whose spies have exited (their pid free), 1 KiB each, an hour apart.
    const dead = spawnSync(node, ['-e', '']).pid!;
    const names = [1, 2, 3, 4].map((hour) => `cursor--${hour % 2 ? 'a' : 'b'}--20261201T0${hour}0000000Z-${dead}.jsonl`);
    for (const name of names) writeFileSync(join(dir, name), `${'x'.repeat(1023)}\n`);
    const dry = await runBin(['sessions', 'prune', '--max-size', '2.5KiB', '--dry-run', '--dir', dir], { env });
    expect(dry.code).toBe(0);
    expect(dry.text).toBe(`would remove ${names[1]}\nwould remove ${names[0]}\nwould remove 2 sessions (2KiB), 2 kept, in ${dir}\n`);
    expect(readdirSync(dir).sort()).toEqual([...names].sort());
    const pruned = await runBin(['sessions', 'prune', '--max-size', '2.5KiB', '--dir', dir], { env });
    expect(pruned.text).toContain('removed 2 sessions (2KiB), 2 kept');
    expect(readdirSync(dir).sort()).toEqual(names.slice(2).sort());
    const bad = await runBin(['sessions', 'prune', '--max-size', 'lots', '--dir', dir], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^mcp-spy sessions prune: option '--max-size <size>' argument 'lots' is invalid: expected a size such as .*\n$/);
  });
});
