import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { accountedBodyBytes, readRecord } from '../helpers/faults.js';
import { startSpy } from '../helpers/http-spy.js';

// An HTTP exchange that outran the observer is a gap, not half an exchange: a gap for each side
// whose bytes no entry stands for, with its stream and every one of those bytes, including those
// handed to the observer before it fell behind. So every body byte is in a frame or in a gap.

const answerBytes = 4 * 1024 * 1024;
const clients = 16;
const maxRounds = 20;
const answer = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x'.repeat(answerBytes) }] } }));

let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A server that answers each call at once with a large result: many at once outrun the observer. */
async function startServer(): Promise<number> {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(answer);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('the HTTP spy when the observer falls behind', () => {
  it('counts each lost exchange in gaps with their stream, every body byte a frame or in a gap', async () => {
    const port = await startServer();
    // A parse limit of 64 KiB leaves the observer ~4 MiB of room: 16 answers of 4 MiB at once outrun it on any machine.
    const spy = await startSpy(['--no-log', '--max-frame', '64KiB', '--target', `http://127.0.0.1:${port}/mcp`]);
    const record = join(spy.dir, 'wire.jsonl');
    const sent = { c2s: 0, s2c: 0 };
    try {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: {} } });
      // Rounds of calls at once until the observer has fallen behind (the record says so).
      for (let round = 0; round < maxRounds; round++) {
        const answers = await Promise.all(
          Array.from({ length: clients }, () =>
            fetch(spy.url, {
              method: 'POST',
              headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
              body,
            }).then((answer) => answer.text()),
          ),
        );
        sent.c2s += clients * Buffer.byteLength(body);
        for (const answer of answers) sent.s2c += Buffer.byteLength(answer);
        if (existsSync(record) && readFileSync(record, 'utf8').includes('the observer fell behind')) break;
      }
      expect(await spy.stop()).toBe(0);
      const entries = readRecord(record);
      const gaps = entries.filter((entry) => entry.kind === 'gap');
      for (const gap of gaps) expect(gap, JSON.stringify(gap)).toMatchObject({ stream: expect.stringMatching(/^(c2s|s2c)$/), lost: expect.any(Number) });
      // A lost answer is lost whole: its gap counts the bytes handed over before the loss too.
      const behind = gaps.filter((gap) => gap.stream === 's2c' && String(gap.reason).includes('fell behind'));
      expect(behind.length).toBeGreaterThan(0);
      for (const gap of behind) expect(gap.lost).toBe(answer.length);
      expect(accountedBodyBytes(entries, 'c2s')).toBe(sent.c2s);
      expect(accountedBodyBytes(entries, 's2c')).toBe(sent.s2c);
    } finally {
      await spy.dispose();
    }
  }, 180_000);
});
