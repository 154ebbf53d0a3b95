// End to end: a project's .mcp.json with two real servers, started as a client starts them (command,
// args, env; the SDK's stdio client), before and after `mcp-spy wrap`; the sessions it leaves.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { everythingServer, fixture, framesOf, node, readEntries, root, runBin, tempDir } from '../helpers/spy.js';

const memoryServer = join(root, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');

let temp: ReturnType<typeof tempDir>;
let home: string;
let project: string;
let config: string;
let memoryFile: string;

beforeEach(() => {
  temp = tempDir('mcp-spy-wrap-launch-');
  home = join(temp.dir, 'home');
  project = join(temp.dir, 'project');
  mkdirSync(home);
  mkdirSync(project);
  config = join(project, '.mcp.json');
  memoryFile = join(temp.dir, 'memory.jsonl');
  const servers = {
    everything: { command: node, args: [everythingServer, 'stdio'] },
    memory: { command: node, args: [memoryServer], env: { MEMORY_FILE_PATH: memoryFile } },
  };
  writeFileSync(config, `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`);
});
afterEach(() => temp.remove());

/**
 * The environment of a client: the test's own home, and no state or spy directory of the machine's.
 * The SDK passes the servers only HOME, PATH and a few more, plus the entry's env.
 */
function clientEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, FORCE_COLOR: '0' };
  for (const name of ['XDG_STATE_HOME', 'XDG_CONFIG_HOME', 'MCP_SPY_DIR', 'CLAUDE_CONFIG_DIR']) delete env[name];
  return env;
}

/** Runs the launcher over the config; resolves with what each server answered. */
function launch(): Promise<Record<string, unknown>> {
  rmSync(memoryFile, { force: true });
  return new Promise((resolve, reject) => {
    const child = spawn(node, [fixture('clients', 'config-launcher.js'), config, 'everything', 'memory'], {
      cwd: project,
      env: clientEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as Record<string, unknown>) : reject(new Error(`launcher exited ${code}: ${err}`))));
  });
}

const spyBin = (args: string[]) => runBin(args, { cwd: project, env: { ...clientEnv(), XDG_STATE_HOME: join(home, '.local', 'state'), MCP_SPY_DIR: '' } });

interface Listed {
  dir: string;
  sessions: { client: string; server: string; frames: number; errors: number; state: string; file: string; runs: number }[];
}

it('two wrapped servers answer as before, and each run is a session in the sessions directory', async () => {
  const before = readFileSync(config, 'utf8');
  const unwrapped = await launch();

  const wrapped = await spyBin(['wrap', 'claude-code', '--yes']);
  expect(wrapped.stderr).toBe('');
  expect(wrapped.code).toBe(0);
  expect(wrapped.text).toContain(`wrapped 2 servers in ${config}`);
  const spied = await launch();
  expect(spied).toEqual(unwrapped);
  expect((spied.everything as { unknown: unknown }).unknown).toEqual({ code: -32601 });

  // The sessions directory: 0700, one file per server and run, 0600, named client--server--time-pid.
  const dir = join(home, '.local', 'state', 'mcp-spy', 'sessions');
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  const files = readdirSync(dir).sort();
  expect(files).toHaveLength(2);
  expect(files[0]).toMatch(/^claude-code--everything--\d{8}T\d{9}Z-\d+\.jsonl$/);
  expect(files[1]).toMatch(/^claude-code--memory--\d{8}T\d{9}Z-\d+\.jsonl$/);
  for (const file of files) expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
  // No wire.jsonl or wire.log where the client started them.
  expect(readdirSync(project)).toEqual(['.mcp.json', '.mcp.json.mcp-spy-backup']);

  const spawnOf = (file: string) => readEntries(join(dir, file)).find((entry) => entry.kind === 'spawn');
  expect(spawnOf(files[0]!)).toMatchObject({ client: 'claude-code', name: 'everything', command: [node, everythingServer, 'stdio'] });
  expect(spawnOf(files[1]!)).toMatchObject({ client: 'claude-code', name: 'memory', command: [node, memoryServer] });

  const listed = await spyBin(['sessions', '--format', 'json']);
  expect(listed.code).toBe(0);
  const json = JSON.parse(listed.text) as Listed;
  expect(json.dir).toBe(dir);
  const counts = (file: string) => {
    const entries = readEntries(join(dir, file));
    return { frames: framesOf(entries).length, errors: entries.filter((entry) => entry.kind === 'protocol-error' || entry.kind === 'tool-error').length };
  };
  expect(json.sessions.map(({ client, server, state, runs, file, frames, errors }) => ({ client, server, state, runs, file, frames, errors }))).toEqual([
    { client: 'claude-code', server: 'everything', state: 'ended', runs: 1, file: join(dir, files[0]!), ...counts(files[0]!) },
    { client: 'claude-code', server: 'memory', state: 'ended', runs: 1, file: join(dir, files[1]!), ...counts(files[1]!) },
  ]);
  // initialize, initialized, tools/list, two calls and a method not found: at least 11 frames, one of them an error.
  expect(json.sessions[0]).toMatchObject({ errors: 1 });
  expect(json.sessions[0]!.frames).toBeGreaterThanOrEqual(11);
  expect(json.sessions[1]).toMatchObject({ errors: 0 });
  expect(json.sessions[1]!.frames).toBeGreaterThanOrEqual(9);

  const text = await spyBin(['sessions']);
  expect(text.text.split('\n')[0]).toBe('CLIENT       SERVER      LAST STARTED          STATE  FRAMES  ERRORS  RUNS  FILE');
  expect(text.text).toContain(`claude-code  everything  `);
  expect(text.text).toContain(`  ended  ${String(json.sessions[0]!.frames).padEnd(6)}  1       1     ${files[0]}\n`);

  // A second run is a second session; prune keeps the newest of each server.
  await launch();
  expect(readdirSync(dir)).toHaveLength(4);
  const pruned = await spyBin(['sessions', 'prune', '--keep', '1']);
  expect(pruned.text).toContain('removed 2 sessions');
  expect(readdirSync(dir).filter((file) => files.includes(file))).toEqual([]);

  const unwrappedAgain = await spyBin(['unwrap']);
  expect(unwrappedAgain.code).toBe(0);
  expect(readFileSync(config, 'utf8')).toBe(before);
  expect(existsSync(`${config}.mcp-spy-backup`)).toBe(false);
});
