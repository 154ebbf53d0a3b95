import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecord, waitUntil } from '../helpers/faults.js';
import { freePort, run, startSpy } from '../helpers/http-spy.js';
import { bin, fixture, node } from '../helpers/spy.js';

/** Whether something still accepts connections on the port, asked until it does not (at most 40 s: a loaded machine is slow to end a process). */
async function stillListening(port: number): Promise<boolean> {
  for (const deadline = Date.now() + 40_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 200))) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (!open) return false;
  }
  return true;
}

describe('the HTTP spy starting and stopping', () => {
  it('stops the whole server command: a launcher that does not pass the signal on (npx, a shell) leaves no server behind', async () => {
    const port = await freePort();
    // sh runs the server as its child (a command follows it) and dies of SIGTERM alone, as npx's launcher does.
    const server = ['sh', '-c', '"$0" "$@"; true', node, fixture('http', 'tool-server.js'), '--port', String(port)];
    const spy = await startSpy(['--target', `http://127.0.0.1:${port}/mcp`, '--no-record', '--no-log'], server);
    expect(await spy.dispose()).toBe(0);
    expect(await stillListening(port)).toBe(false);
  });

  it('says so on stderr when the server command is slow to listen, and a stop signal still ends both', async () => {
    const port = await freePort();
    const never = [node, '-e', 'setTimeout(() => {}, 60_000)'];
    const spy = await run(
      node,
      [bin, 'http', '--quiet', '--no-record', '--no-log', '--target', `http://127.0.0.1:${port}/mcp`, '--', ...never],
      /waiting for the server to accept connections at (\S+)/,
    );
    expect(spy.url).toBe(`127.0.0.1:${port}`);
    expect(spy.stdout()).not.toContain('listening on');
    expect(await spy.stop()).toBe(0);
  });

  it('a second stop signal while it finishes (a server slow to stop) does not kill it: exit 0, the record ends with the exit', async () => {
    const port = await freePort();
    const spy = await startSpy(['--target', `http://127.0.0.1:${port}/mcp`], [node, fixture('faults', 'slow-stop-http.js'), String(port)]);
    spy.child.kill('SIGTERM');
    // The second once the spy is finishing: the server has had the first and is taking its second.
    await waitUntil(() => spy.stderr().includes('slow-stop: stopping'), 40_000, 'the server to get the stop signal');
    spy.child.kill('SIGTERM');
    const code = await spy.exited;
    expect(spy.child.signalCode).toBeNull();
    expect(code).toBe(0);
    expect(readRecord(join(spy.dir, 'wire.jsonl')).at(-1)).toMatchObject({ kind: 'exit', code: 0 });
    await spy.dispose();
  });
});
