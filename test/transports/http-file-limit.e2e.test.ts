// Out of file descriptors (`ulimit -n 64`, 200 clients at once): the system would reset connections
// the spy never sees. The spy refuses what it cannot hold itself, says so once on stderr, and
// records each refusal; the connections it holds are forwarded.
import { Agent, createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/faults.js';
import { run, type Running } from '../helpers/http-spy.js';
import { bin, node, readEntries, tempDir } from '../helpers/spy.js';

const clients = 200;

/** POSTs a ping on a connection of its own; resolves with the status, or the error code when the connection failed. */
function ping(url: string, agent: Agent, id: number): Promise<string> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) =>
      res.resume().on('end', () => resolve(String(res.statusCode))),
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    req.end(JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }));
  });
}

describe('the HTTP spy at its limit of open files', () => {
  const temp = tempDir();
  let upstream: Server;
  const held: { req: IncomingMessage; res: ServerResponse }[] = [];
  let spy: Running;

  beforeAll(async () => {
    // Holds every request until the test lets them go: all the clients are connected at once.
    upstream = createServer((req, res) => req.resume().on('end', () => held.push({ req, res })));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/mcp`;
    spy = await run('sh', ['-c', `ulimit -n 64 && exec "$0" "$@"`, node, bin, 'http', '--quiet', '--no-log', '--target', target], /listening on (\S+),/, {
      cwd: temp.dir,
    });
  });
  afterAll(async () => {
    await spy?.stop();
    upstream?.closeAllConnections();
    await new Promise((resolve) => upstream?.close(resolve));
    temp.remove();
  });

  it('refuses what it cannot hold, says so once, records each refusal, and forwards the rest', async () => {
    const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
    const outcomes = Array.from({ length: clients }, (_, id) => ping(spy.url, agent, id));
    await waitUntil(() => spy.stderr().includes('refusing connections'), 30_000, 'the spy to say it refuses connections');
    await waitUntil(() => held.length > 0, 30_000, 'the held connections to reach the server');
    const release = setInterval(
      () =>
        held
          .splice(0)
          .forEach(
            ({ req, res }) =>
              res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: JSON.parse('0'), result: {} })) && req,
          ),
      20,
    );
    const results = await Promise.all(outcomes);
    clearInterval(release);
    const refusedCount = results.filter((result) => result !== '200').length;
    expect(results.filter((result) => result === '200').length).toBeGreaterThan(0);
    expect(refusedCount).toBeGreaterThan(0);
    expect(spy.stderr().match(/refusing connections/g)).toHaveLength(1);
    expect(spy.stderr()).not.toContain('observer stopped');
    expect(spy.stderr()).toMatch(
      /^mcp-spy: refusing connections: more than \d+ connections at once under the limit of 64 open files \(ulimit -n\); their clients see the connection reset/m,
    );
    await spy.stop();
    const recorded = readEntries(join(temp.dir, 'wire.jsonl'));
    const refusals = recorded.filter((entry) => entry.kind === 'http' && String(entry.summary).includes('refused'));
    expect(refusals).toHaveLength(refusedCount);
    expect(refusals[0]!.summary).toMatch(/^connection from 127\.0\.0\.1:\d+ refused: more than \d+ connections at once under the limit of 64 open files/);
  }, 120_000);
});
