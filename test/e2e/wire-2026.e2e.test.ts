// 2026-07-28 on the wire, through the built binary: the Mcp-Param-* headers a tool's x-mcp-header
// arguments travel in, checked against the body as Mcp-Method and Mcp-Name are; the tasks
// extension's methods and subscriptions/listen known, and their notifications paired with the listen.
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { meta2026, recordLine } from '../../src/check/examples.js';
import { readRecord } from '../helpers/faults.js';
import { eventually, startSpy } from '../helpers/http-spy.js';
import { node, runBin, tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-2026-');
afterAll(() => (process.env.KEEP ? undefined : temp.remove()));

const rules = (text: string) => [...text.matchAll(/ (?:error|warning) ([a-z-]+):/g)].map((match) => match[1]);
const deploy = {
  name: 'deploy',
  inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' } } },
};
const answer = { content: [{ type: 'text', text: 'deployed' }], resultType: 'complete' };

/** Stateless exchanges, each a session of its own: tools/list in x-1, then one call in x-2 with `headers`. */
function recording(name: string, args: object, params: Record<string, string>): string {
  const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'deploy', ...params };
  const list = { id: 1, method: 'tools/list', params: { _meta: meta2026 } };
  const call = { id: 2, method: 'tools/call', params: { name: 'deploy', arguments: args, _meta: meta2026 } };
  return temp.file(
    name,
    `${[
      recordLine(
        1,
        {
          session: 'x-1',
          dir: 'c2s',
          kind: 'request',
          method: 'tools/list',
          id: 1,
          rev: '2026-07-28',
          headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
        },
        list,
      ),
      recordLine(
        2,
        { session: 'x-1', dir: 's2c', kind: 'response', method: 'tools/list', id: 1, rev: '2026-07-28', related: { seq: 1, id: 1, method: 'tools/list' } },
        { id: 1, result: { tools: [deploy], resultType: 'complete' } },
      ),
      recordLine(3, { session: 'x-2', dir: 'c2s', kind: 'request', method: 'tools/call', tool: 'deploy', id: 2, rev: '2026-07-28', headers }, call),
      recordLine(
        4,
        {
          session: 'x-2',
          dir: 's2c',
          kind: 'response',
          method: 'tools/call',
          tool: 'deploy',
          id: 2,
          rev: '2026-07-28',
          related: { seq: 3, id: 2, method: 'tools/call', tool: 'deploy' },
        },
        { id: 2, result: answer },
      ),
    ].join('\n')}\n`,
  );
}

describe('Mcp-Param-* headers', () => {
  it('that agree with the arguments are clean, the base64 form of a non-ASCII value decoded', async () => {
    const zurich = `=?base64?${Buffer.from('Zürich', 'utf8').toString('base64')}?=`;
    const result = await runBin([
      'check',
      recording('agree.jsonl', { region: 'Zürich', dry: true }, { 'mcp-param-region': zurich, 'mcp-param-dry-run': 'true' }),
    ]);
    expect(result.text).toContain('clean');
  });

  it('that differ from the arguments, are missing, or name an argument not given are header-mismatch', async () => {
    const result = await runBin(['check', recording('differ.jsonl', { region: 'eu-west' }, { 'mcp-param-dry-run': 'false', 'mcp-param-region': 'us-east' })]);
    expect(rules(result.text)).toEqual(['header-mismatch', 'header-mismatch']);
    expect(result.text).toContain('Mcp-Param-Region: "us-east" but arguments.region is "eu-west"');
    expect(result.text).toContain('Mcp-Param-Dry-Run: "false" but arguments.dry is not given');
    const missing = await runBin(['check', recording('missing.jsonl', { region: 'eu-west' }, {})]);
    expect(missing.text).toContain('Mcp-Param-Region: absent but arguments.region is "eu-west"');
  });

  it('a base64 Mcp-Name is read decoded', async () => {
    const name = `=?base64?${Buffer.from('deploy', 'utf8').toString('base64')}?=`;
    const result = await runBin(['check', recording('name.jsonl', { region: 'eu' }, { 'mcp-name': name, 'mcp-param-region': 'eu' })]);
    expect(result.text).toContain('clean');
  });
});

/** A stateless 2026-07-28 server in a few lines: lists `deploy`, answers any call; it checks no header, so what the client sent reaches it. */
function deployServer(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const { id, method } = JSON.parse(body);
      const result = method === 'tools/list' ? { tools: [deploy], resultType: 'complete' } : answer;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp` })),
  );
}

describe('Mcp-Param-* headers through the HTTP spy', () => {
  it('are noted live as header-mismatch when they disagree with the arguments of a tool an earlier exchange listed', async () => {
    const { server, url } = await deployServer();
    const spy = await startSpy(['--target', url]);
    try {
      const post = (id: number, method: string, params: object, headers: Record<string, string> = {}) =>
        fetch(spy.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': method,
            ...headers,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta2026 } }),
        }).then((response) => response.text());
      await post(1, 'tools/list', {});
      await post(2, 'tools/call', { name: 'deploy', arguments: { region: 'eu-west' } }, { 'mcp-name': 'deploy', 'mcp-param-region': 'eu-west' });
      await post(3, 'tools/call', { name: 'deploy', arguments: { region: 'eu-west' } }, { 'mcp-name': 'deploy', 'mcp-param-region': 'us-east' });
      const note = await eventually(() => spy.entries().find((entry) => entry.kind === 'note' && entry.notes?.includes('header-mismatch')));
      expect(note).toMatchObject({ related: { id: 3, method: 'tools/call' } });
      expect(note.text).toContain('Mcp-Param-Region: "us-east" but arguments.region is "eu-west"');
      const call = spy.entries().find((entry) => entry.kind === 'request' && entry.id === 3);
      expect(call?.headers).toMatchObject({ 'mcp-param-region': 'us-east' });
      expect(spy.entries().filter((entry) => entry.kind === 'note')).toHaveLength(1);
    } finally {
      await spy.dispose();
      server.close();
    }
  }, 30_000);
});

// A 2026-07-28 stdio server that answers subscriptions/listen with the acknowledgement and a task's
// status on the stream, then the tasks extension's requests with empty results.
const server = `
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');
const result = { resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'tasks', version: '1' } } };
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method } = JSON.parse(line);
  if (method === 'subscriptions/listen') {
    const meta = { 'io.modelcontextprotocol/subscriptionId': id };
    send({ method: 'notifications/subscriptions/acknowledged', params: { _meta: meta, notifications: { taskIds: ['t1'] } } });
    send({ method: 'notifications/tasks', params: { _meta: meta, taskId: 't1', status: 'input_required', createdAt: '2026-07-28T00:00:00Z', lastUpdatedAt: '2026-07-28T00:00:01Z', ttlMs: null, inputRequests: {} } });
  } else if (id !== undefined) send({ id, result: method === 'tasks/get' ? { ...result, taskId: 't1', status: 'working', createdAt: '2026-07-28T00:00:00Z', lastUpdatedAt: '2026-07-28T00:00:01Z', ttlMs: null } : result });
});`;

describe('the tasks extension and subscriptions/listen', () => {
  it('are methods of 2026-07-28, and the notifications on a listen stream are related to it', async () => {
    const meta = { ...meta2026, 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } };
    const requests = [
      { id: 1, method: 'subscriptions/listen', params: { _meta: meta, notifications: { taskIds: ['t1'] } } },
      { id: 2, method: 'tasks/get', params: { _meta: meta, taskId: 't1' } },
      { id: 3, method: 'tasks/update', params: { _meta: meta, taskId: 't1', inputResponses: {} } },
      { id: 4, method: 'tasks/cancel', params: { _meta: meta, taskId: 't1' } },
    ];
    const input = requests.map((request) => `${JSON.stringify({ jsonrpc: '2.0', ...request })}\n`).join('');
    const result = await runBin(['-q', '--', node, '-e', server], { cwd: temp.dir, input });
    expect(result.code).toBe(0);
    const record = join(temp.dir, 'wire.jsonl');
    const entries = readRecord(record);
    const listen = entries.find((entry) => entry.method === 'subscriptions/listen' && entry.kind === 'request')!;
    for (const method of ['notifications/subscriptions/acknowledged', 'notifications/tasks']) {
      expect(entries.find((entry) => entry.method === method)?.related, method).toMatchObject({ seq: listen.seq, id: 1, method: 'subscriptions/listen' });
    }
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel'])
      expect(
        entries.find((entry) => entry.method === method && entry.kind === 'response'),
        method,
      ).toBeDefined();
    const check = await runBin(['check', record]);
    expect(rules(check.text)).not.toContain('method-not-in-revision');
    // The listen stream is never answered here: the client closed it (stdio: its input).
    expect(rules(check.text).filter((rule) => rule !== 'unanswered-request')).toEqual([]);
  });
});
