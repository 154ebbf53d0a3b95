// What a spy loads to start: only what forwarding and recording need. The schema library (zod), the
// JSON Schema validator (ajv), the MCP SDKs, OpenTelemetry and the console's Ink and React belong to other commands; loaded at
// start they cost a spy 40 MiB and half a second before the server even runs. Seen from outside: a
// resolve hook (fixtures/startup) writes down every package the process and its threads import.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { run, freePort } from '../helpers/http-spy.js';
import { bin, fixture, node, runBin, tempDir } from '../helpers/spy.js';
import { startTerminal } from '../helpers/tmux.js';

const heavy = /^(zod|ajv|ajv-formats|execa|yaml|@opentelemetry\/.*|@modelcontextprotocol\/.*|ink|react|react-reconciler|yoga-layout)$/;

/** A directory for the test (removed when it ends), and the environment that makes a process list its packages in a file there. */
function listing() {
  const { dir, remove } = tempDir();
  onTestFinished(remove);
  const file = join(dir, 'packages.txt');
  const env = { NODE_OPTIONS: `--import=${fixture('startup', 'packages-hook.mjs')}`, MCP_SPY_TEST_PACKAGES: file };
  const packages = () => [...new Set(readFileSync(file, 'utf8').trim().split('\n'))].sort();
  return { dir, env, packages };
}

describe('a spy starting', () => {
  it('over stdio, recording and logging, loads no package that only other commands need', async () => {
    const { dir, env, packages } = listing();
    const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}\n';
    const result = await runBin(['-q', '--record', join(dir, 'wire.jsonl'), '--log', join(dir, 'wire.log'), '--', 'cat'], { env, input: ping, cwd: dir });
    expect(result.code).toBe(0);
    expect(result.text).toBe(ping);
    expect(packages()).toContain('commander');
    expect(packages().filter((name) => heavy.test(name))).toEqual([]);
  });

  it('as wrap writes it into a client config (--client, --name, the record in the sessions directory), loads none of them either', async () => {
    const { dir, env, packages } = listing();
    const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}\n';
    const result = await runBin(['--client', 'cursor', '--name', 'cat', '--', 'cat'], {
      env: { ...env, MCP_SPY_DIR: join(dir, 'sessions') },
      input: ping,
      cwd: dir,
    });
    expect(result.code).toBe(0);
    expect(result.text).toBe(ping);
    expect(packages()).toContain('commander');
    expect(packages().filter((name) => heavy.test(name))).toEqual([]);
  });

  it('over HTTP, recording, loads none of them either', async () => {
    const { dir, env, packages } = listing();
    const target = `http://127.0.0.1:${await freePort()}/mcp`;
    const spy = await run(node, [bin, 'http', '--quiet', '--target', target, '--record', join(dir, 'wire.jsonl')], /listening on (\S+),/, { cwd: dir, env });
    expect(await spy.stop()).toBe(0);
    expect(packages()).toContain('commander');
    expect(packages().filter((name) => heavy.test(name))).toEqual([]);
  });

  it('is told apart from a command that needs them: check loads the validator', async () => {
    const { dir, env, packages } = listing();
    const record = join(dir, 'wire.jsonl');
    await runBin(['-q', '--record', record, '--no-log', '--', 'cat'], { input: '{"jsonrpc":"2.0","id":1,"method":"ping"}\n', cwd: dir });
    const result = await runBin(['check', record], { env, cwd: dir });
    expect(result.stdout.length).toBeGreaterThan(0);
    expect(packages()).toContain('ajv');
  });
});

describe('the console starting', () => {
  it('loads Ink and React, and none of what only its exports need (the SDK schemas, the validator), until asked', async () => {
    const { dir, env, packages } = listing();
    const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
    const vars = Object.entries({ ...env, MCP_SPY_DIR: join(dir, 'sessions') })
      .map(([name, value]) => `${name}=${quote(value)}`)
      .join(' ');
    const terminal = startTerminal(`${vars} ${quote(node)} ${quote(bin)} ui; echo "EXIT=$?"; exec sleep 600`, {
      width: 100,
      height: 30,
    });
    onTestFinished(terminal.kill);
    await terminal.shows(/no sessions yet/);
    terminal.keys('q');
    await terminal.shows(/EXIT=0/);
    expect(packages()).toEqual(expect.arrayContaining(['ink', 'react']));
    expect(packages().filter((name) => /^(zod|ajv|ajv-formats|@modelcontextprotocol\/.*|@opentelemetry\/.*)$/.test(name))).toEqual([]);
  });
});
