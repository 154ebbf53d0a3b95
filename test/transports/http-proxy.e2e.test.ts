import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { connect } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort, runSpyOnce, startSpy, type Spy } from '../helpers/http-spy.js';
import { fixture, framesOf } from '../helpers/spy.js';

describe('streaming through the spy', () => {
  let spy: Spy;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    spy = await startSpy(['--target', `http://127.0.0.1:${port}/mcp`], [process.execPath, fixture('http', 'tool-server.js'), '--port', String(port)]);
  });
  afterAll(async () => {
    await spy?.dispose();
  });

  it('delivers an SSE progress event as it is sent, long before the result', async () => {
    const client = new Client({ name: 'stream', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(spy.url)));
    const arrivals: { sentAt: number; at: number }[] = [];
    const result = await client.callTool({ name: 'slow-progress', arguments: {} }, undefined, {
      onprogress: (progress) => arrivals.push({ sentAt: Number(/sent at (\d+)/.exec(progress.message ?? '')?.[1]), at: Date.now() }),
    });
    const doneAt = Number(/done at (\d+)/.exec(JSON.stringify(result))?.[1]);
    await client.close();
    expect(arrivals).toHaveLength(1);
    // Order, not milliseconds: the progress reached the client before the server had even made
    // its result (a second later), so the spy passed the event on as it came.
    expect(arrivals[0]!.at).toBeGreaterThanOrEqual(arrivals[0]!.sentAt);
    expect(arrivals[0]!.at).toBeLessThan(doneAt);
  });

  it('records a session expiring (404) and the client starting again', async () => {
    const response = await fetch(spy.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': 'gone-away',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: -32001 } });
    const client = new Client({ name: 'again', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(spy.url));
    await client.connect(transport);
    await client.listTools();
    await client.close();

    const log = await eventually(() => {
      const text = spy.log();
      return text.includes(`session ${transport.sessionId} assigned`) ? text : undefined;
    });
    const expired = log.indexOf('** http        POST /mcp 404 Not Found; session unknown or expired');
    expect(expired).toBeGreaterThan(-1);
    expect(log.indexOf(`session ${transport.sessionId} assigned`)).toBeGreaterThan(expired);
    const entries = spy.entries();
    const lost = entries.find((entry) => entry.kind === 'protocol-error' && entry.session === 'gone-away');
    expect(lost).toMatchObject({ dir: 's2c', id: null, error: { code: -32001 } });
    // The 404 answers the request it refused (the client starts again): it is not left unanswered.
    expect(entries.find((entry) => entry.kind === 'http' && entry.session === 'gone-away' && entry.status === 404)).toMatchObject({
      requests: [{ id: 3, method: 'tools/list' }],
    });
    expect(entries.find((entry) => entry.kind === 'unanswered' && entry.session === 'gone-away')).toBeUndefined();
  });

  it('stops the server command when the spy stops', async () => {
    expect(await spy.stop()).toBe(0);
    const entries = spy.entries();
    expect(entries.find((entry) => entry.kind === 'spawn')).toMatchObject({
      transport: 'http',
      command: [process.execPath, fixture('http', 'tool-server.js'), '--port', String(port)],
    });
    expect(entries.at(-1)).toMatchObject({ kind: 'exit' });
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => resolve(socket.destroy() && false));
      socket.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
  });
});

describe('a transparent and safe proxy', () => {
  let upstream: Server;
  let target: string;
  let spy: Spy;
  let plain: Spy;
  let lastHeaders: Record<string, unknown> = {};

  beforeAll(async () => {
    // Answers every request with what it received, and a cookie.
    upstream = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        lastHeaders = req.headers;
        if (req.method === 'DELETE') {
          res.writeHead(204, { 'set-cookie': 'sid=server-secret' }).end();
          return;
        }
        const echo = JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body });
        res.writeHead(req.method === 'PUT' ? 418 : 200, { 'content-type': 'application/json', 'set-cookie': 'sid=server-secret', 'x-custom': 'kept' });
        res.end(echo);
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    target = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/mcp`;
    [spy, plain] = await Promise.all([startSpy(['--target', target, '--redact-header', 'X-Api-Key']), startSpy(['--target', target, '--no-redact'])]);
  });
  afterAll(async () => {
    await Promise.all([spy?.dispose(), plain?.dispose()]);
    upstream?.closeAllConnections();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  const secrets = { authorization: 'Bearer client-secret', 'x-api-key': 'key-secret', cookie: 'c=cookie-secret', 'x-other': 'visible' };

  it('forwards method, path, query, headers, body and status unchanged, Host aside', async () => {
    const origin = new URL(spy.url).origin;
    const response = await fetch(`${origin}/somewhere/else?x=1&y=2`, { method: 'PUT', headers: secrets, body: 'not json at all' });
    expect(response.status).toBe(418);
    expect(response.headers.get('set-cookie')).toBe('sid=server-secret');
    expect(response.headers.get('x-custom')).toBe('kept');
    const seen = await response.json();
    expect(seen).toMatchObject({ method: 'PUT', url: '/somewhere/else?x=1&y=2', body: 'not json at all', headers: { ...secrets, host: new URL(target).host } });
  });

  it('hides secret headers in the record and log only, unless told not to', async () => {
    for (const which of [spy, plain]) {
      const response = await fetch(`${new URL(which.url).origin}/mcp`, { method: 'DELETE', headers: secrets });
      expect(response.status).toBe(204);
      expect(response.headers.get('set-cookie')).toBe('sid=server-secret');
      expect(lastHeaders).toMatchObject(secrets);
    }
    const http = await eventually(() => spy.entries().find((entry) => entry.httpMethod === 'DELETE'));
    expect(http.headers).toMatchObject({
      request: { authorization: '[redacted]', 'x-api-key': '[redacted]', cookie: '[redacted]', 'x-other': 'visible' },
      response: { 'set-cookie': ['[redacted]'] },
    });
    await spy.stop();
    const files =
      JSON.stringify(spy.entries().filter((entry) => entry.kind === 'http')) +
      spy
        .log()
        .split('\n')
        .filter((line) => line.includes('** http'))
        .join('\n');
    for (const secret of ['client-secret', 'key-secret', 'cookie-secret', 'server-secret']) expect(files).not.toContain(secret);
    const kept = await eventually(() => plain.entries().find((entry) => entry.httpMethod === 'DELETE'));
    expect(kept.headers).toMatchObject({ request: { authorization: 'Bearer client-secret' }, response: { 'set-cookie': ['sid=server-secret'] } });
  });

  it('records each member of a batch, and a GET resuming after an event id', async () => {
    const origin = new URL(plain.url).origin;
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ];
    const headers = { 'content-type': 'application/json', 'mcp-session-id': 'batch-session', 'mcp-protocol-version': '2025-03-26' };
    expect((await fetch(`${origin}/mcp`, { method: 'POST', headers, body: JSON.stringify(batch) })).status).toBe(200);
    const resumed = await fetch(`${origin}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': 'batch-session', 'last-event-id': 'ev-41' } });
    await resumed.text();
    const entries = await eventually(() => {
      const all = plain.entries();
      return all.some((entry) => entry.httpMethod === 'GET' && entry.session === 'batch-session') ? all : undefined;
    });
    const members = framesOf(entries).filter((entry) => entry.session === 'batch-session' && entry.dir === 'c2s');
    expect(members).toMatchObject([
      { kind: 'request', method: 'tools/list', batch: { index: 0, count: 2 }, rev: '2025-03-26' },
      { kind: 'notification', method: 'notifications/initialized', batch: { index: 1, count: 2 } },
    ]);
    expect(members[0]!.notes).toBeUndefined();
    const get = entries.find((entry) => entry.httpMethod === 'GET' && entry.session === 'batch-session');
    expect(get).toMatchObject({ status: 200, summary: 'OK; resuming after event ev-41', headers: { request: { 'last-event-id': 'ev-41' } } });
  });

  it('is never an open proxy: an absolute-form request still goes to the target', async () => {
    const { port } = new URL(plain.url);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: Number(port) }, () => {
        // The Host is the spy's own: any other is refused before the request target is even read.
        socket.write(`GET http://example.com/elsewhere?q=1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(reply).toContain('"url":"/elsewhere?q=1"');
    expect(reply).toContain(`"host":"${new URL(target).host}"`);
  });
});

describe('an https target', () => {
  it('is reached over TLS, with the certificate checked as Node checks it', async () => {
    const tls = { cert: readFileSync(fixture('http', 'tls/cert.pem')), key: readFileSync(fixture('http', 'tls/key.pem')) };
    const upstream = createTlsServer(tls, (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { host: req.headers.host } }));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const target = `https://localhost:${(upstream.address() as { port: number }).port}/mcp`;
    const spy = await startSpy(['--target', target], [], { NODE_EXTRA_CA_CERTS: fixture('http', 'tls/cert.pem') });
    try {
      const response = await fetch(spy.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      });
      expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { host: new URL(target).host } });
      const answer = await eventually(() => framesOf(spy.entries()).find((entry) => entry.dir === 's2c'));
      expect(answer).toMatchObject({ kind: 'response', method: 'ping' });
      // Without trust in that certificate, the client gets a 502 that says why.
      const untrusting = await startSpy(['--target', target]);
      const refused = await fetch(untrusting.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":2,"method":"ping"}',
      });
      await untrusting.dispose();
      expect(refused.status).toBe(502);
      expect((await refused.json()).error.message).toContain('SELF_SIGNED_CERT');
    } finally {
      await spy.dispose();
      upstream.closeAllConnections();
      upstream.close();
    }
  });
});

describe('when the server cannot be reached', () => {
  it('answers 502 with a JSON-RPC error and records why', async () => {
    const port = await freePort();
    const spy = await startSpy(['--target', `http://127.0.0.1:${port}/mcp`]);
    try {
      const response = await fetch(spy.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }),
      });
      expect(response.status).toBe(502);
      const body = await response.json();
      expect(body).toMatchObject({ jsonrpc: '2.0', id: 5, error: { code: -32603 } });
      expect(body.error.message).toContain('ECONNREFUSED');
      const http = await eventually(() => spy.entries().find((entry) => entry.kind === 'http' && entry.status === 502));
      expect(http.reason).toContain(`cannot reach http://127.0.0.1:${port}: ECONNREFUSED`);
      const answer = framesOf(spy.entries()).find((entry) => entry.dir === 's2c');
      expect(answer).toMatchObject({ kind: 'protocol-error', method: 'tools/list', origin: 'spy', session: http.session });
    } finally {
      await spy.dispose();
    }
  });
});

describe('bad use', () => {
  it('ends with the status of a server command that ends on its own', async () => {
    const port = await freePort();
    const result = await runSpyOnce([
      'http',
      '--quiet',
      '--no-record',
      '--no-log',
      '--target',
      `http://127.0.0.1:${port}/mcp`,
      '--',
      process.execPath,
      '-e',
      'process.exit(3)',
    ]);
    expect(result.code).toBe(3);
    const missing = await runSpyOnce([
      'http',
      '--quiet',
      '--no-record',
      '--no-log',
      '--target',
      `http://127.0.0.1:${port}/mcp`,
      '--',
      'no-such-command-for-mcp-spy',
    ]);
    expect(missing).toMatchObject({ code: 127, stdout: '', stderr: 'mcp-spy: cannot start no-such-command-for-mcp-spy: command not found\n' });
  });

  it('refuses a port in use with one line and exit 69', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as { port: number };
    try {
      const result = await runSpyOnce(['http', '--target', 'http://127.0.0.1:1/mcp', '--listen', `127.0.0.1:${port}`, '--no-record', '--no-log']);
      expect(result.code).toBe(69);
      expect(result.stderr).toBe(`mcp-spy: cannot listen on 127.0.0.1:${port}: the port is already in use\n`);
    } finally {
      busy.close();
    }
  });
});
