import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/faults.js';
import { freePort, run } from '../helpers/http-spy.js';
import { bin, node, readEntries, runBin, tempDir } from '../helpers/spy.js';

/** A server that listens only once a file named `go` appears in its directory: as slow to start as the test likes. */
const lateServer = `
const { existsSync } = require('node:fs');
const wait = setInterval(() => {
  if (!existsSync('go')) return;
  clearInterval(wait);
  require('node:http').createServer((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}'))
    .listen(Number(process.argv[1]), '127.0.0.1', () => console.error('late server up'));
}, 20);`;

describe('the HTTP spy running its server command', () => {
  it('says it listens (stdout and the live view) only once the server accepts connections', async () => {
    const temp = tempDir();
    const port = await freePort();
    const spy = await run(node, [bin, 'http', '--target', `http://127.0.0.1:${port}/mcp`, '--', node, '-e', lateServer, String(port)], /\*\* spawn /, {
      cwd: temp.dir,
      env: { FORCE_COLOR: '0' },
    });
    try {
      // The server runs but does not listen yet: a client told to come now would get 502.
      expect(spy.stderr()).not.toContain('listening on');
      expect(spy.stdout()).not.toContain('listening on');
      writeFileSync(join(temp.dir, 'go'), '');
      await waitUntil(() => spy.stdout().includes('listening on'), 30_000, 'the spy to say it listens');
      const url = /listening on (\S+),/.exec(spy.stdout())![1]!;
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
      expect(response.status).toBe(200);
      await waitUntil(() => spy.stderr().includes('** http        listening on'), 30_000, 'the live view to say it listens');
      const stderr = spy.stderr();
      expect(stderr.indexOf('late server up')).toBeLessThan(stderr.indexOf('** http        listening on'));
      await spy.stop();
      // The record reads in the same order: the server started, then the spy could be reached.
      const kinds = readEntries(join(temp.dir, 'wire.jsonl')).map((entry) => entry.kind);
      expect(kinds.slice(0, 2)).toEqual(['spawn', 'http']);
    } finally {
      await spy.stop();
      temp.remove();
    }
  });

  it('says in one line that a server command does not exist, and records only that', async () => {
    const temp = tempDir();
    const port = await freePort();
    const result = await runBin(['http', '--target', `http://127.0.0.1:${port}/mcp`, '--', 'no-such-command-for-mcp-spy'], { cwd: temp.dir });
    try {
      expect(result).toMatchObject({ code: 127, text: '', stderr: 'mcp-spy: cannot start no-such-command-for-mcp-spy: command not found\n' });
      expect(readEntries(join(temp.dir, 'wire.jsonl'))).toMatchObject([{ kind: 'exit', code: null, reason: 'no-such-command-for-mcp-spy: command not found' }]);
    } finally {
      temp.remove();
    }
  });
});
