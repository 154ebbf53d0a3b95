// Drives the HTTP setups: clients on keep-alive connections POSTing tools/call-like requests, each
// waiting for its answer before the next (closed loop), or at an offered rate (open loop).
import { Agent, request } from 'node:http';
import { requestFrame } from './stdio-drive.js';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

/** One client: a connection of its own, and the session the server gave it, if any. */
export function openClient(url) {
  return { url, agent: new Agent({ keepAlive: true, maxSockets: 1 }), session: undefined };
}

/** POSTs one body; resolves with the status and how many bytes the answer had (it is not kept). */
export function post(client, body) {
  return new Promise((resolve, reject) => {
    const headers = client.session ? { ...HEADERS, 'mcp-session-id': client.session } : HEADERS;
    const req = request(client.url, { method: 'POST', agent: client.agent, headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode, bytes, session: res.headers['mcp-session-id'] }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A request body of `size` bytes: `requestFrame` without its line ending. */
export const requestBody = (id, size) => requestFrame(id, size).subarray(0, -1);

/** A call that must come back 200 with a body; resolves with its round trip in ms. */
export async function call(client, body) {
  const sentAt = performance.now();
  const answer = await post(client, body);
  if (answer.status !== 200 || answer.bytes === 0) throw new Error(`a call got status ${answer.status} and ${answer.bytes} bytes`);
  return performance.now() - sentAt;
}

/** Opens a session as an SDK client would (initialize, then notifications/initialized). */
export async function initialize(client) {
  const init = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  };
  client.session = (await post(client, JSON.stringify(init))).session;
  await post(client, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
}

/** `clients` calling, each one call after the other, for `seconds`; resolves with the calls made and their round trips. */
export async function closedLoop(clients, { seconds, body, ids }) {
  const times = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < until) times.push(await call(client, body(ids.next++)));
    }),
  );
  return { calls: times.length, seconds: (performance.now() - started) / 1000, times };
}

/**
 * Offers `rate` calls per second for `seconds` from a pool of clients: a call due while every client
 * is busy waits for one. Resolves with the calls made and the rate actually achieved.
 */
export async function openLoop(clients, { rate, seconds, body, ids }) {
  const total = Math.max(1, Math.round(rate * seconds));
  const idle = [...clients];
  const waiting = [];
  const started = performance.now();
  let made = 0;
  const take = () => (idle.length > 0 ? Promise.resolve(idle.pop()) : new Promise((resolve) => waiting.push(resolve)));
  const release = (client) => (waiting.length > 0 ? waiting.shift()(client) : idle.push(client));
  const calls = [];
  for (let n = 0; n < total; n++) {
    const due = started + (n * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const client = await take();
    calls.push(
      call(client, body(ids.next++))
        .then(() => made++)
        .finally(() => release(client)),
    );
  }
  await Promise.all(calls);
  const elapsed = (performance.now() - started) / 1000;
  return { calls: made, seconds: elapsed, achieved: made / elapsed };
}
