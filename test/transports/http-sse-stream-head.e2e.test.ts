import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { everythingHttp, spyInFront } from '../helpers/http-spy.js';

const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Opens a session with a plain fetch: initialize, then initialized. Returns its id. */
async function openSession(url: string): Promise<string> {
  const init = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };
  const response = await fetch(url, { method: 'POST', headers: json, body: JSON.stringify(init) });
  const session = response.headers.get('mcp-session-id')!;
  await response.text();
  const headers = { ...json, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
  await (await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
  return session;
}

/**
 * Opens the GET stream on a raw socket and resolves with the first bytes that arrive, or with ''
 * after `withinMs`: the server sends no event on it, so those bytes can only be the head.
 */
async function firstBytesOfStream(url: string, withinMs: number): Promise<string> {
  const target = new URL(url);
  const session = await openSession(url);
  const socket = connect(Number(target.port), target.hostname);
  socket.write(
    `GET ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nAccept: text/event-stream\r\nMcp-Session-Id: ${session}\r\nMcp-Protocol-Version: 2025-06-18\r\n\r\n`,
  );
  try {
    return await new Promise<string>((resolve) => {
      socket.once('data', (chunk) => resolve(chunk.toString('latin1')));
      setTimeout(() => resolve(''), withinMs);
    });
  } finally {
    socket.destroy();
  }
}

/** The head of the answer to an initialize POSTed on a raw socket (server-everything answers it as an SSE stream). */
async function headOfPostedStream(url: string): Promise<string> {
  const target = new URL(url);
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  const socket = connect(Number(target.port), target.hostname);
  socket.write(
    `POST ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  try {
    let seen = '';
    return await new Promise<string>((resolve, reject) => {
      socket.on('data', (chunk) => {
        seen += chunk.toString('latin1');
        const end = seen.indexOf('\r\n\r\n');
        if (end !== -1) resolve(seen.slice(0, end + 4));
      });
      socket.once('error', reject);
    });
  } finally {
    socket.destroy();
  }
}

const connection = (head: string) => head.split('\r\n').filter((line) => /^(connection|keep-alive):/i.test(line));

describe('the GET stream through the spy (server-everything)', () => {
  const running = spyInFront('/mcp', everythingHttp('streamableHttp'));

  it("passes the 200 head on at once, before any event, with the server's own Connection header", async () => {
    const direct = await firstBytesOfStream(running.direct, 40_000);
    // Long enough for a busy machine; a head that waits for the first event never comes at all.
    const spied = await firstBytesOfStream(running.spy.url, 40_000);
    expect(direct).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n$/);
    expect(spied).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n$/);
    expect(spied).toMatch(/\r\ncontent-type: text\/event-stream\r\n/);
    expect(connection(direct)).toEqual(['connection: keep-alive']);
    expect(connection(spied)).toEqual(connection(direct));
  });

  it("keeps the server's own Connection header on a POST answered as a stream too, with no Keep-Alive timeout", async () => {
    const direct = await headOfPostedStream(running.direct);
    const spied = await headOfPostedStream(running.spy.url);
    expect(spied).toMatch(/\r\ncontent-type: text\/event-stream\r\n/);
    expect(connection(direct)).toEqual(['connection: keep-alive']);
    expect(connection(spied)).toEqual(connection(direct));
  });
});
