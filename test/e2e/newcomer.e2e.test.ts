// What a new user trips over on the command line: --debug, a busy port, nobody listening, the demo's hint, the package.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/http-spy.js';
import { bin, root, runBin, runBinSync, tempDir } from '../helpers/spy.js';

const temp = tempDir();
afterAll(() => temp.remove());

const ping = `${JSON.stringify({ v: 1, seq: 1, t: '2026-07-28T10:00:00.000Z', session: 's1', dir: 'c2s', kind: 'request', method: 'ping', id: 1, raw: '{"jsonrpc":"2.0","id":1,"method":"ping"}' })}\n`;

// Help, --debug on every command and a human log given to replay or mock: in-process, test/cli/bad-use-*.test.ts.
describe('--debug', () => {
  it('view --debug views', () => {
    const record = temp.file('debug.jsonl', ping);
    const result = runBinSync(['view', record, '--debug']);
    expect(result).toMatchObject({ code: 0, stderr: '', text: '10:00:00.000 -> request     ping #1\n' });
  });
});

describe('a port in use', () => {
  it('is the same line and exit 69 for http and mock --listen', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as { port: number };
    const record = temp.file('busy.jsonl', ping);
    try {
      const line = `mcp-spy: cannot listen on 127.0.0.1:${port}: the port is already in use\n`;
      const http = await runBin(['http', '--target', 'http://127.0.0.1:1/mcp', '--listen', `127.0.0.1:${port}`, '--no-record', '--no-log']);
      const mock = await runBin(['mock', record, '--listen', `127.0.0.1:${port}`]);
      expect(http).toMatchObject({ code: 69, stderr: line });
      expect(mock).toMatchObject({ code: 69, stderr: line });
    } finally {
      busy.close();
    }
  });
});

describe('replay where nobody listens', () => {
  it('replay --target where nobody listens says so at once', async () => {
    const port = await freePort();
    const record = temp.file('unreachable.jsonl', ping);
    // At once: waiting for an answer would take the whole --timeout, ten times the test's own.
    const result = await runBin(['replay', record, '--target', `http://127.0.0.1:${port}/mcp`, '--timeout', '600s']);
    expect(result).toMatchObject({ code: 1, stderr: 'mcp-spy: the server is not reachable: cannot connect: ECONNREFUSED\n', text: '' });
  });
});

describe('the demo says how to go on from where the user is', () => {
  const nextLine = (text: string) => text.split('\n').find((line) => line.startsWith('Next: '))!;

  it('npx mcp-spy inside the clone, node and the bin elsewhere, mcp-spy when it is on the PATH', async () => {
    const path = {
      PATH: process.env
        .PATH!.split(':')
        .filter((dir) => !dir.includes('node_modules'))
        .join(':'),
    };
    const inClone = await runBin(['demo', '--dir', join(temp.dir, 'a')], { cwd: root, env: path });
    expect(nextLine(inClone.text)).toBe(`Next: npx mcp-spy view ${join(temp.dir, 'a', 'wire.jsonl')} --kind tool-error,protocol-error,invalid`);
    const elsewhere = await runBin(['demo', '--dir', join(temp.dir, 'b')], { cwd: temp.dir, env: path });
    const hint = nextLine(elsewhere.text).slice('Next: '.length);
    expect(hint).toBe(`node ${bin} view ${join(temp.dir, 'b', 'wire.jsonl')} --kind tool-error,protocol-error,invalid`);
    // The hint runs as printed, from where the user is.
    const ran = execFileSync('sh', ['-c', hint], { cwd: temp.dir, env: { ...process.env, FORCE_COLOR: '0' } }).toString();
    expect(ran).toContain('<- tool-error');
    // So does the one that draws the session: the report lands beside the record.
    const seeIt = elsewhere.text
      .split('\n')
      .find((line) => line.startsWith('See it: '))!
      .slice('See it: '.length);
    expect(seeIt).toBe(`node ${bin} report ${join(temp.dir, 'b', 'wire.jsonl')}`);
    expect(
      execFileSync('sh', ['-c', seeIt], { cwd: temp.dir, env: { ...process.env, FORCE_COLOR: '0' } })
        .toString()
        .trim(),
    ).toBe(join(temp.dir, 'b', 'wire.html'));
    const linked = join(temp.dir, 'bin');
    mkdirSync(linked);
    symlinkSync(bin, join(linked, 'mcp-spy'));
    const onPath = await runBin(['demo', '--dir', join(temp.dir, 'c')], { cwd: temp.dir, env: { PATH: `${linked}:${path.PATH}` } });
    expect(nextLine(onPath.text)).toMatch(/^Next: mcp-spy view /);
    // Its last line says how to put the spy in front of a server of one's own.
    expect(elsewhere.text.trimEnd().split('\n').at(-1)).toBe(
      `Yours:  node ${bin} -- node server.js   (any server's command after --; README, "Spy on a stdio server")`,
    );
    // Three demos and two commands, one after the other.
  }, 180_000);
});

describe('the demo on one screen', () => {
  it("shows each answer in the live view before the client's line about it, and counts only its own run", () => {
    const dir = join(temp.dir, 'screen');
    const run = () =>
      execFileSync('sh', ['-c', `"$0" "$1" demo --dir "$2" 2>&1`, process.execPath, bin, dir], { env: { ...process.env, FORCE_COLOR: '0' }, encoding: 'utf8' });
    run();
    const text = run();
    const pairs = [
      ['<- response    tools/list #1', 'client got tools/list'],
      ['<- response    tools/call #2', 'client got tools/call add'],
      ['<- tool-error  tools/call #3', 'client got tools/call divide'],
      ['<- response    resources/read #4', 'client got resources/read'],
      ['<- response    prompts/get #5', 'client got prompts/get'],
      ['<- proto-error tools/fly #6', 'client got tools/fly'],
    ];
    for (const [spy, client] of pairs) {
      expect(text).toContain(spy);
      expect(text).toContain(client);
    }
    // The demo waits for each answer's record (at most 5 s a line, so a spy that records nothing
    // costs little) before the client's line; the live view follows the record. On a machine with
    // more runnable work than cores the observer, at a low priority, may be further behind than
    // that, and the order is then not the demo's promise: it is held where the machine keeps up.
    if (loadavg()[0]! < availableParallelism()) {
      for (const [spy, client] of pairs) expect(text.indexOf(spy!), `${spy} before ${client}`).toBeLessThan(text.indexOf(client!));
    }
    // The second run appended to the first's record; its summary is of itself.
    expect(text).toContain('Recorded: spawn 1, ');
  }, 180_000);
});

describe('the README quick start', () => {
  it("is two commands, and the first one's demo hint runs from the clone with no global install", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const block = readme.slice(readme.indexOf('## Quick start')).split('\n\n')[1]!;
    const commands = block.split('\n').map((line) => line.trim().split(/\s+#/)[0]!.trim());
    expect(commands).toEqual(['npm ci && npx mcp-spy demo', 'npm test']);
    // npm ci has run (these tests run on its build); no mcp-spy on the PATH, no registry.
    const env = {
      ...process.env,
      FORCE_COLOR: '0',
      npm_config_offline: 'true',
      PATH: process.env
        .PATH!.split(':')
        .filter((dir) => !dir.includes('node_modules'))
        .join(':'),
    };
    const dir = join(temp.dir, 'quick');
    const shell = (command: string) => execFileSync('sh', ['-c', command], { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const demo = shell(`${commands[0]!.replace('npm ci && ', '')} --dir ${dir}`);
    const hint = demo
      .split('\n')
      .find((line) => line.startsWith('Next: '))!
      .slice('Next: '.length);
    expect(hint).toMatch(/^npx mcp-spy view /);
    expect(shell(hint)).toContain('<- tool-error');
    // npx, the demo and view, each a process start that a busy machine makes slow.
  }, 180_000);
});

describe('the package', () => {
  it('ships the demo and its server, not the test fixtures or the test TLS key', () => {
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
    ) as [{ files: { path: string }[] }];
    const files = packed[0].files.map((file) => file.path);
    expect(files).toEqual(expect.arrayContaining(['bin/mcp-spy.js', 'dist/cli/main.js', 'dist/cli/demo-command.js', 'fixtures/demo/server.js', 'README.md']));
    expect(files.filter((file) => file.startsWith('fixtures/') && !file.startsWith('fixtures/demo/'))).toEqual([]);
    expect(files.filter((file) => file.startsWith('test/') || file.startsWith('src/') || file.endsWith('.pem'))).toEqual([]);
    // npm itself takes seconds to start, and many more on a busy machine.
  }, 180_000);
});
