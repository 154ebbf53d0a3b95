import { describe, expect, it } from 'vitest';
import { fixture, runBin, tempDir } from '../helpers/spy.js';

// Bad use refused before a server starts is tested in-process: test/cli/bad-use-spy.test.ts.
describe('a server that cannot be started gets one clear line and a non-zero exit', () => {
  it('says 127 when the command is not found, 126 when it cannot be executed', async () => {
    const missing = await runBin(['-q', '--', 'no-such-command-here']);
    expect(missing.code).toBe(127);
    expect(missing.stderr.trim()).toBe('mcp-spy: cannot start no-such-command-here: command not found');
    const notExecutable = await runBin(['-q', '--', `${fixture('servers', 'time-server.js')}.not-there`, 'x']);
    expect(notExecutable.code).toBe(127);
    const dir = tempDir().dir;
    const directory = await runBin(['-q', '--', dir]);
    expect(directory.code).toBe(126);
    expect(directory.stderr.trim()).toMatch(/^mcp-spy: cannot start .*: permission denied/);
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
    const result = await runBin(['-q', '--no-record', '--no-log', '--', 'sh', '-c', 'pwd; echo "$SPY_TEST_VALUE"'], {
      cwd: dir,
      env: { SPY_TEST_VALUE: 'kept' },
    });
    expect(result.stdout.toString()).toBe(`${dir}\nkept\n`);
  });
});
