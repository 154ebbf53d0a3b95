// What a reader of the sessions directory does with what it finds there that no spy wrote.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixture, node, runBin, tempDir } from '../helpers/spy.js';

let temp: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let dir: string;
beforeEach(() => {
  temp = tempDir('mcp-spy-sessions-hostile-');
  mkdirSync(join(temp.dir, 'home'));
  dir = join(temp.dir, 'sessions');
  env = { HOME: join(temp.dir, 'home'), XDG_STATE_HOME: join(temp.dir, 'state'), MCP_SPY_DIR: dir };
});
afterEach(() => temp.remove());

const request = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`;

/** One real session of cursor's `echo`, and its file name. */
async function oneSession(): Promise<string> {
  const result = await runBin(['-q', '--client', 'cursor', '--name', 'echo', '--', node, fixture('servers', 'echo-server.js')], { input: request, env });
  expect(result.code).toBe(0);
  return readdirSync(dir)[0]!;
}

describe('files in the sessions directory that no spy wrote', () => {
  it("a planted link, a FIFO, a directory and another user's file are not sessions: not read, not listed, not pruned", async () => {
    const real = await oneSession();
    const outside = join(temp.dir, 'outside.txt');
    writeFileSync(outside, 'not a session\n');
    // Named as sessions of the same server, newer than the real one (pid 1 runs: they would count as live).
    symlinkSync(outside, join(dir, 'cursor--echo--29990101T000000000Z-1.jsonl'));
    execFileSync('mkfifo', [join(dir, 'cursor--echo--29990101T000000001Z-1.jsonl')]);
    mkdirSync(join(dir, 'cursor--echo--29990101T000000002Z-1.jsonl'));
    const foreign = join(dir, 'cursor--echo--29990101T000000003Z-1.jsonl');
    copyFileSync(join(dir, real), foreign);
    const root = process.getuid?.() === 0;
    if (root) chownSync(foreign, 65534, 65534);

    const listed = await runBin(['sessions', '--all', '--format', 'json'], { env });
    expect(listed.code).toBe(0);
    const files = (JSON.parse(listed.text) as { sessions: { file: string }[] }).sessions.map((session) => session.file);
    expect(files).toEqual([join(dir, real), ...(root ? [] : [foreign])]);

    const pruned = await runBin(['sessions', 'prune', '--keep', '1'], { env });
    expect(pruned.code).toBe(0);
    expect(existsSync(join(dir, real))).toBe(root);
    expect(readdirSync(dir)).toContain('cursor--echo--29990101T000000000Z-1.jsonl');
    expect(readFileSync(outside, 'utf8')).toBe('not a session\n');
  });

  it('a file named with terminal escapes is listed with them made visible', async () => {
    await oneSession();
    writeFileSync(join(dir, 'x\u001b]0;pwn\u0007--esc--20200101T000000000Z-999999.jsonl'), '');
    const listed = await runBin(['sessions', '--all'], { env });
    expect(listed.code).toBe(0);
    expect(listed.text).not.toMatch(/[\u001b\u0007]/);
    expect(listed.text).toContain('x\\u001b]0;pwn\\u0007--esc--20200101T000000000Z-999999.jsonl');
  });
});

describe('sessions of entries with hostile names', () => {
  it('a 10 KB name is cut in the table (the JSON has it whole); a bidirectional override is an escape in both', async () => {
    const long = 'n'.repeat(10240);
    for (const name of [long, 'bidi\u202eexe.txt', '名前']) {
      const result = await runBin(['-q', '--client', 'cursor', '--name', name, '--', node, fixture('servers', 'echo-server.js')], { input: request, env });
      expect(result.code).toBe(0);
    }
    const listed = await runBin(['sessions'], { env });
    expect(listed.code).toBe(0);
    const lines = listed.text.split('\n');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(250);
    expect(listed.text).toContain(`cursor  ${'n'.repeat(39)}…  `);
    expect(listed.text).not.toContain('\u202e');
    // Columns line up in terminal columns: 名前 takes four.
    const [header, ...rows] = lines.filter((line) => line.startsWith('CLIENT') || line.startsWith('cursor'));
    const stateAt = header!.indexOf('LAST STARTED');
    for (const row of rows) expect(row.replace('名前', 'xxxx').search(/\d{4}-\d\d-\d\d /)).toBe(stateAt);
    const json = await runBin(['sessions', '--format', 'json'], { env });
    expect(json.text).not.toContain('\u202e');
    expect((JSON.parse(json.text) as { sessions: { server: string }[] }).sessions.map((session) => session.server).sort()).toEqual(
      [long, 'bidi\u202eexe.txt', '名前'].sort(),
    );
  });
});

describe('the mode of the sessions directory', () => {
  it('a directory named by MCP_SPY_DIR keeps its mode (a shared 1777 one was made 0700); the default one is tightened', async () => {
    mkdirSync(dir);
    chmodSync(dir, 0o1777);
    const file = await oneSession();
    expect((statSync(dir).mode & 0o7777).toString(8)).toBe('1777');
    expect((statSync(join(dir, file)).mode & 0o777).toString(8)).toBe('600');
    const defaultDir = join(env.XDG_STATE_HOME!, 'mcp-spy', 'sessions');
    mkdirSync(defaultDir, { recursive: true });
    chmodSync(defaultDir, 0o755);
    const result = await runBin(['-q', '--name', 'echo', '--', node, fixture('servers', 'echo-server.js')], {
      input: request,
      env: { ...env, MCP_SPY_DIR: '' },
    });
    expect(result.code).toBe(0);
    expect((statSync(defaultDir).mode & 0o777).toString(8)).toBe('700');
  });
});

describe('a sessions directory that is not one', () => {
  it('sessions and prune on a file say so in one line, exit 2 (an internal error, exit 70, before)', async () => {
    const file = join(temp.dir, 'a-file');
    writeFileSync(file, '');
    for (const args of [['sessions'], ['sessions', '--format', 'json'], ['sessions', 'prune', '--keep', '1']]) {
      const result = await runBin(args, { env: { ...env, MCP_SPY_DIR: file } });
      expect(result.stderr).toBe(`mcp-spy: cannot read the sessions directory ${file}: ENOTDIR\n`);
      expect(result.code).toBe(2);
    }
  });
});
