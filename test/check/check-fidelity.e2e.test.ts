// False positives found on conforming traffic: real sessions that `check` must find clean, and the
// hand-made recordings that still break each rule. The spy's own `unanswered` event agrees with check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { c2s, handshake, lines, recordLine, s2c } from '../../src/check/examples.js';
import { readRecord } from '../helpers/faults.js';
import { recordHttp } from '../helpers/http-spy.js';
import { everythingServer, fixture, node, rawSpyClient, recordSession, runBin, tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-fidelity-');
afterAll(() => temp.remove());

const check = (path: string) => runBin(['check', path]);
const rulesOf = (text: string) => [...text.matchAll(/ (?:error|warning) ([a-z-]+):/g)].map((match) => match[1]);

/** A raw client that calls the impatient server's `ask` tool and never answers the server's roots/list. */
async function recordImpatient(record: string) {
  const { child, until, send } = rawSpyClient(record, [node, fixture('servers', 'impatient-server.js')]);
  send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { roots: {} }, clientInfo: { name: 'raw', version: '1' } } });
  await until('"id":1');
  send({ method: 'notifications/initialized' });
  send({ id: 2, method: 'tools/call', params: { name: 'ask', arguments: {} } });
  // roots/list, then (300 ms later) the server's own cancellation of it, then the tool's answer.
  await until('"id":2');
  child.stdin!.end();
  await new Promise((resolve) => child.once('close', resolve));
}

/** The spy wrote no `unanswered` event, and check finds the recording clean: the two agree. */
async function expectAgreedClean(record: string) {
  expect(readRecord(record).filter((entry) => entry.kind === 'unanswered')).toEqual([]);
  const result = await check(record);
  expect(result.text).toContain('clean');
  expect(result.code).toBe(0);
}

describe('unanswered-request: one definition for the spy and check', () => {
  it('a server request sent after the client closed stdin is noted, not unanswered', async () => {
    const record = join(temp.dir, 'leave.jsonl');
    await recordSession('everything-client.js', record, [node, everythingServer, 'stdio'], { SCENARIO: 'leave' });
    const roots = readRecord(record).find((entry) => entry.method === 'roots/list' && entry.kind === 'request');
    expect(roots?.notes).toEqual(['client-closed']);
    await expectAgreedClean(record);
  }, 30_000);

  it("a server request the server cancelled itself is neither in the spy's unanswered event nor in check", async () => {
    const record = join(temp.dir, 'impatient.jsonl');
    await recordImpatient(record);
    expect(readRecord(record).map((entry) => entry.method)).toEqual(expect.arrayContaining(['roots/list', 'notifications/cancelled']));
    await expectAgreedClean(record);
  }, 30_000);

  it('a server request left unanswered while the client was still there breaks the rule', async () => {
    const bad = temp.file(
      'unanswered.wire.log',
      `${lines(handshake('2025-06-18', {}, { roots: {} }), s2c({ id: 0, method: 'roots/list' }), c2s({ id: 1, method: 'ping' }), s2c({ id: 1, result: {} }))}\n`,
    );
    const result = await check(bad);
    expect(rulesOf(result.text)).toEqual(['unanswered-request']);
    expect(result.code).toBe(1);
  });
});

describe('cancel-unknown-request in stateless 2025 HTTP', () => {
  let record: string;
  beforeAll(async () => {
    const recorded = await recordHttp(temp.dir, '/mcp', (port) => [node, fixture('http', 'stateless-server.js'), '--port', String(port)], {
      script: 'everything-client.js',
      flag: '--url',
      env: { SCENARIO: 'cancel' },
    });
    record = recorded.record;
  }, 30_000);

  it('a cancellation posted apart from its request (each POST its own session) is clean', async () => {
    const entries = readRecord(record);
    const cancel = entries.find((entry) => entry.method === 'notifications/cancelled');
    const call = entries.find((entry) => entry.method === 'tools/call' && entry.kind === 'request');
    expect(cancel?.session).toMatch(/^x-\d+$/);
    expect(cancel?.session).not.toBe(call?.session);
    const result = await check(record);
    expect(rulesOf(result.text)).not.toContain('cancel-unknown-request');
    expect(rulesOf(result.text)).not.toContain('unanswered-request');
    expect(result.code).toBe(0);
  });

  it('a cancellation of a request no exchange sent still breaks the rule', async () => {
    const cancel = { method: 'notifications/cancelled', params: { requestId: 99, reason: 'gone' } };
    const bad = temp.file(
      'cancel.jsonl',
      `${[recordLine(1, { session: 'x-1', dir: 'c2s', kind: 'request', method: 'tools/call', id: 1 }, { id: 1, method: 'tools/call', params: { name: 'sleep', arguments: { ms: 1 } } }), recordLine(2, { session: 'x-1', dir: 's2c', kind: 'response', method: 'tools/call', id: 1, related: { seq: 1, id: 1, method: 'tools/call' } }, { id: 1, result: { content: [] } }), recordLine(3, { session: 'x-2', dir: 'c2s', kind: 'notification', method: 'notifications/cancelled', notes: ['cancel-unknown-request'] }, cancel)].join('\n')}\n`,
    );
    const result = await check(bad);
    expect(rulesOf(result.text)).toEqual(['cancel-unknown-request']);
  });
});

describe('header-mismatch before 2026-07-28', () => {
  const session = (header: string) => {
    const frames = handshake('2025-06-18', { tools: {} }).map((line, index) => {
      const message = JSON.parse(line.slice(3));
      const dir = line.startsWith('->') ? 'c2s' : 's2c';
      const kind = 'method' in message ? ('id' in message ? 'request' : 'notification') : 'response';
      const headers = dir === 'c2s' && index > 0 ? { 'mcp-protocol-version': header } : undefined;
      const related = kind === 'response' ? { related: { seq: 1, id: 0, method: 'initialize' } } : {};
      return recordLine(index + 1, { dir, kind, method: message.method ?? 'initialize', id: message.id, ...related, ...(headers ? { headers } : {}) }, message);
    });
    return `${frames.join('\n')}\n`;
  };

  it('an MCP-Protocol-Version header equal to the negotiated revision is clean', async () => {
    const result = await check(temp.file('header-good.jsonl', session('2025-06-18')));
    expect(result.text).toContain('clean');
    expect(result.code).toBe(0);
  });

  it('a header that differs from the negotiated revision is header-mismatch', async () => {
    const result = await check(temp.file('header-bad.jsonl', session('2025-03-26')));
    expect(rulesOf(result.text)).toEqual(['header-mismatch']);
    expect(result.text).toContain('warning header-mismatch: MCP-Protocol-Version: "2025-03-26" but the session negotiated "2025-06-18"');
    // The spec says SHOULD: a warning, which fails no build on its own.
    expect(result.code).toBe(0);
  });
});
