import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSpy, type Spy } from '../helpers/http-spy.js';

/** 2,100 header lines, short enough (empty values) that the whole head stays under Node's 16 KiB. */
const names = Array.from({ length: 2100 }, (_, i) => `k${i.toString(36)}`);

/** Sends a GET with every name as a header on a raw socket; resolves with the response as text. */
function sendMany(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.write(`GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${names.map((name) => `${name}:\r\n`).join('')}Connection: close\r\n\r\n`);
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('a request and a response with thousands of headers', () => {
  let upstream: Server;
  let spy: Spy;

  beforeAll(async () => {
    // Counts the request's headers (`k...` ones) in its body, and answers with as many of its own.
    upstream = createServer((req, res) => {
      const count = req.rawHeaders.filter((name, index) => index % 2 === 0 && name.startsWith('k')).length;
      res.writeHead(
        200,
        names.flatMap((name) => [name, '']),
      );
      res.end(String(count));
    });
    upstream.maxHeadersCount = 0;
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    spy = await startSpy(['--target', `http://127.0.0.1:${(upstream.address() as { port: number }).port}/mcp`]);
  });
  afterAll(async () => {
    await spy?.dispose();
    upstream?.closeAllConnections();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  it('passes every header on, both ways, as direct', async () => {
    const direct = await sendMany((upstream.address() as { port: number }).port);
    const spied = await sendMany(Number(new URL(spy.url).port));
    // The body is chunked: its size, the count, the last chunk.
    const counts = (text: string) => {
      const [head, body] = text.split('\r\n\r\n');
      return {
        status: head!.split('\r\n')[0],
        request: body!.split('\r\n')[1],
        response: head!.split('\r\n').filter((line) => /^k[0-9a-z]+:/.test(line)).length,
      };
    };
    expect(counts(direct)).toEqual({ status: 'HTTP/1.1 200 OK', request: '2100', response: 2100 });
    expect(counts(spied)).toEqual(counts(direct));
  });
});
