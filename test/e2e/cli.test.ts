import { describe, expect, it } from 'vitest';
import { fixture, runBin, tempDir } from '../helpers/spy.js';

const oneLine = (text: string) => text.trim().split('\n');

describe('bad use gets one clear line and a non-zero exit', () => {
  it.each([
    ['no command after --', ['--'], /^mcp-spy: no server command/],
    ['no command at all', [], /^mcp-spy: no server command/],
    ['an unknown option', ['--bogus', '--', 'cat'], /^mcp-spy: unknown option '--bogus'/],
    ['a record path in a missing directory', ['--record', '/nonexistent-dir/x.jsonl', '--', 'cat'], /^mcp-spy: cannot write record \/nonexistent-dir\/x.jsonl: directory \/nonexistent-dir does not exist$/],
    ['a log path in a missing directory', ['--log', '/nonexistent-dir/x.log', '--', 'cat'], /^mcp-spy: cannot write log/],
    ['a bad size', ['--max-frame', 'lots', '--', 'cat'], /^mcp-spy: option '--max-frame <size>' argument 'lots' is invalid/],
    ['a server command without --', ['node', 'server.js'], /^mcp-spy: unknown command 'node'; to spy on a server, put its command after --: mcp-spy -- node server.js$/],
  ])('%s', async (_name, args, message) => {
    const result = await runBin(args);
    expect(result.code).toBe(2);
    expect(oneLine(result.stderr)).toHaveLength(1);
    expect(result.stderr.trim()).toMatch(message);
    expect(result.stdout.length).toBe(0);
  });

  it('says 127 when the command is not found, 126 when it cannot be executed', async () => {
    const missing = await runBin(['-q', '--', 'no-such-command-here']);
    expect(missing.code).toBe(127);
    expect(missing.stderr.trim()).toBe('mcp-spy: cannot start no-such-command-here: command not found');
    const notExecutable = await runBin(['-q', '--', fixture('servers', 'time-server.js') + '.not-there', 'x']);
    expect(notExecutable.code).toBe(127);
    const dir = tempDir().dir;
    const directory = await runBin(['-q', '--', dir]);
    expect(directory.code).toBe(126);
    expect(directory.stderr.trim()).toMatch(/^mcp-spy: cannot start .*: permission denied/);
  });

  it('prints its version and a help with examples and client config snippets', async () => {
    const version = await runBin(['--version']);
    expect(version.stdout.toString().trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = await runBin(['--help']);
    expect(help.code).toBe(0);
    const text = help.stdout.toString();
    expect(text).toContain('mcp-spy -- node server.js');
    expect(text).toContain('claude_desktop_config.json');
    expect(text).toContain('claude mcp add');
  });
});

describe('exit codes and signals', () => {
  it('exits with the server exit code, and 128+n when a signal ended it', async () => {
    expect((await runBin(['-q', '--', 'sh', '-c', 'exit 7'])).code).toBe(7);
    expect((await runBin(['-q', '--', 'sh', '-c', 'kill -9 $$'])).code).toBe(137);
  });

  it.each([
    ['SIGTERM', 15],
    ['SIGINT', 2],
    ['SIGHUP', 1],
  ] as const)('forwards %s to the server', async (signal, number) => {
    const result = await runBin(['-q', '--no-record', '--no-log', '--', process.execPath, fixture('servers', 'signal-server.js')], {
      onStart: (child) => {
        child.stderr!.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('ready')) child.kill(signal);
        });
      },
    });
    expect(result.stderr).toContain(`got ${signal}`);
    expect(result.code).toBe(40 + number);
  });

  it('closes the server stdin when its own closes', async () => {
    const result = await runBin(['-q', '--no-record', '--no-log', '--', 'cat'], { input: 'abc\n' });
    expect(result.code).toBe(0);
    expect(result.stdout.toString()).toBe('abc\n');
  });

  it('runs the server in our working directory with our environment', async () => {
    const dir = tempDir().dir;
    const result = await runBin(['-q', '--no-record', '--no-log', '--', 'sh', '-c', 'pwd; echo "$SPY_TEST_VALUE"'], { cwd: dir, env: { SPY_TEST_VALUE: 'kept' } });
    expect(result.stdout.toString()).toBe(`${dir}\nkept\n`);
  });
});
