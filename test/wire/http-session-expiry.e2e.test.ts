// Sessions a client never ends with DELETE (most do not) must not cost the spy memory for ever:
// past 5,000 open sessions the least recently used idle one is forgotten, and the record says so.
import { createServer, type Server } from 'node:http';
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestEntry } from '../helpers/spy.js';
import { eventually, startSpy, type Spy } from '../helpers/http-spy.js';

/** A server that gives every initialize a session of its own (`s-1`, `s-2` ...) and forgets nothing. */
function sessionServer(): Server {
  let sessions = 0;
  return createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const message = JSON.parse(body) as { id: number };
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': `s-${++sessions}` });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: message.id,
          result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'sessions', version: '1' } },
        }),
      );
    });
  });
}

/** Opens `count` sessions through `url`, 16 at a time, and leaves them open. */
async function openSessions(url: string, count: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'many', version: '1' } },
  });
  const open = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        url,
        { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
        (res) => res.resume().on('end', resolve),
      );
      req.on('error', reject).end(body);
    });
  for (let done = 0; done < count; done += 16) await Promise.all(Array.from({ length: Math.min(16, count - done) }, open));
  agent.destroy();
}

describe('HTTP sessions never ended by DELETE', () => {
  let upstream: Server;
  let spy: Spy;

  beforeAll(async () => {
    upstream = sessionServer();
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    // --lossless: every session reaches the observer (on a loaded machine it let most exchanges go
    // as gaps, and fewer than 5,000 sessions were ever open in its eyes).
    spy = await startSpy(['--target', `http://127.0.0.1:${(upstream.address() as { port: number }).port}/mcp`, '--no-log', '--lossless']);
  });
  afterAll(async () => {
    await spy?.dispose();
    upstream?.closeAllConnections();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  it('are forgotten past 5,000 open, the least recently used first, each with a session-expired note', async () => {
    await openSessions(spy.url, 5_040);
    const isExpiry = (entry: TestEntry) => entry.kind === 'note' && Array.isArray(entry.notes) && entry.notes.includes('session-expired');
    // The record is written as it goes, a moment after the traffic; then the spy stops, so it is whole.
    await eventually(() => spy.entries().some(isExpiry) || undefined, 60_000);
    await spy.stop();
    const expired = spy.entries().filter(isExpiry);
    expect(spy.entries().filter((entry) => entry.kind === 'gap')).toEqual([]);
    expect(expired.length).toBe(40);
    expect(expired[0]).toMatchObject({ text: 'the spy stopped following this session (5000 sessions open, never ended by DELETE)' });
    // Sixteen at a time, the sessions are answered (and so used last) nearly in the order they were opened.
    const numbers = expired.map((entry) => Number(String(entry.session).slice(2)));
    expect(new Set(numbers).size).toBe(expired.length);
    expect(Math.max(...numbers)).toBeLessThanOrEqual(40 + 16);
  }, 120_000);
});
