// The server's stderr and the live view share the spy's stderr, written from two threads: a line
// the server logs because of a request comes after that request's line, not above it.
import { spawn } from 'node:child_process';
import { describe, expect, it, onTestFinished } from 'vitest';
import { bin, fixture, node, tempDir } from '../helpers/spy.js';

/** Runs the client against the spy and the chatty server; resolves with all the spy wrote on its stderr. */
function spyStderr(dir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = spawn(
      node,
      [fixture('clients', 'everything-client.js'), '--', node, bin, '--record', 'r.jsonl', '--no-log', '--', node, fixture('servers', 'chatty-server.js')],
      {
        cwd: dir,
        env: { ...process.env, FORCE_COLOR: '0', SCENARIO: 'progress', CLIENT_STDERR: 'inherit' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let text = '';
    client.stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    client.on('error', reject);
    client.on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`client exited ${code}: ${text}`))));
  });
}

describe("the server's stderr in the live view", () => {
  it('comes after the line of the request that made the server write it', async () => {
    const { dir, remove } = tempDir();
    onTestFinished(remove);
    const lines = (await spyStderr(dir)).split('\n');
    const request = lines.findIndex((line) => / -> request +tools\/call #1 /.test(line));
    const working = lines.findIndex((line) => line.includes('"msg":"working, line 1 of 40'));
    expect(request, lines.join('\n')).toBeGreaterThan(-1);
    expect(working, lines.join('\n')).toBeGreaterThan(request);
    // Held, never dropped: every line the server wrote is there.
    expect(lines.filter((line) => line.startsWith('{"level":"info"'))).toHaveLength(80);
  });
});
