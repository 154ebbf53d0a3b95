import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRecord } from '../helpers/faults.js';
import { startSpy } from '../helpers/http-spy.js';

// --lossless on HTTP: while the recorder is behind, the spy stops reading bodies, so every frame of
// every exchange is in the record, however many clients call at once; and once stopped, it finishes
// the record whole, whatever --drain-timeout says.

const clients = 16;
const callsEach = 100;
const answerBytes = 64 * 1024;

let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A server that answers each call with a large result carrying its id, as fast as it can. */
async function startServer(): Promise<number> {
  const text = 'x'.repeat(answerBytes);
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const { id } = JSON.parse(body) as { id: number };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } }));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('--lossless on HTTP', () => {
  it(`${clients} clients calling at once: every frame recorded, no gap`, async () => {
    const port = await startServer();
    const spy = await startSpy(['--lossless', '--drain-timeout', '1ms', '--no-log', '--target', `http://127.0.0.1:${port}/mcp`]);
    try {
      const client = async (which: number) => {
        for (let call = 0; call < callsEach; call++) {
          const id = which * callsEach + call;
          const response = await fetch(spy.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { id } } }),
          });
          expect((await response.json()) as { id: number }).toMatchObject({ id });
        }
      };
      await Promise.all(Array.from({ length: clients }, (_, which) => client(which)));
      expect(await spy.stop()).toBe(0);
      const entries = readRecord(join(spy.dir, 'wire.jsonl'));
      expect(entries.filter((entry) => entry.kind === 'gap').map((gap) => JSON.stringify(gap))).toEqual([]);
      const calls = entries.filter((entry) => entry.dir === 'c2s');
      const answers = entries.filter((entry) => entry.dir === 's2c');
      expect(calls).toHaveLength(clients * callsEach);
      expect(answers).toHaveLength(clients * callsEach);
      expect(new Set(answers.map((entry) => entry.id)).size).toBe(clients * callsEach);
      for (const answer of answers) expect(Number(answer.bytes)).toBeGreaterThan(answerBytes);
    } finally {
      await spy.stop();
      rmSync(spy.dir, { recursive: true, force: true });
    }
  }, 180_000);
});
