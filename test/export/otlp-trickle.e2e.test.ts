import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { runBin, tempDir } from '../helpers/spy.js';

// `export otlp` against a collector that answers 200 and then sends its reply a byte a second was
// still running after 120 s: the exporters' timeout ends at the reply's first byte. The whole wait
// for the collector is bounded now, as the live spy bounds its own.
const temp = tempDir();
const replies = new Set<ServerResponse>();
const collector: Server = createServer((request, response) => {
  request.resume().on('end', () => {
    response.writeHead(200, { 'content-type': 'application/x-protobuf' });
    replies.add(response);
    const drip = setInterval(() => response.write('x'), 1000);
    response.on('close', () => clearInterval(drip));
  });
});
afterAll(async () => {
  for (const reply of replies) reply.destroy();
  await new Promise((resolve) => collector.close(resolve));
  temp.remove();
});

const line = (seq: number, fields: object) => `${JSON.stringify({ v: 2, seq, t: `2026-07-28T10:00:0${seq}.000Z`, session: 's1', ...fields })}\n`;

describe('export otlp to a collector that trickles its reply', () => {
  it('gives up within the request timeout and a second, in one line, exit 69', { timeout: 90_000 }, async () => {
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const port = (collector.address() as AddressInfo).port;
    const record = temp.file(
      'ping.jsonl',
      [
        line(1, { kind: 'spawn', command: ['server'], transport: 'stdio' }),
        line(2, { dir: 'c2s', kind: 'request', method: 'ping', id: 1, bytes: 9, msg: { jsonrpc: '2.0', id: 1, method: 'ping' } }),
        line(3, {
          dir: 's2c',
          kind: 'response',
          method: 'ping',
          id: 1,
          bytes: 9,
          related: { seq: 2, id: 1, method: 'ping' },
          msg: { jsonrpc: '2.0', id: 1, result: {} },
        }),
        line(4, { kind: 'exit', code: 0 }),
      ].join(''),
    );
    // Without the bound the export would run for ever: it is stopped after a minute, and fails.
    const result = await runBin(['export', 'otlp', record, '--endpoint', `http://127.0.0.1:${port}`], {
      onStart: (child) => {
        child.stdin?.end();
        setTimeout(() => child.kill('SIGKILL'), 60_000).unref();
      },
    });
    expect(result.stderr).toBe(
      `mcp-spy: the collector at http://127.0.0.1:${port}/v1/traces did not take 2 span(s) within 6 s; the export stopped after 0 span(s)\n`,
    );
    expect(result.code).toBe(69);
    expect(replies.size).toBeGreaterThan(0);
  });
});
