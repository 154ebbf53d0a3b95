// The pure parts of replay and mock: paths, diffs, ignores, matching, exchanges.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FrameChange } from '../../src/replay/session-items.js';
import { updateRecording } from '../../src/replay/update.js';
import { diffMessages, formatPath } from '../../src/recording/compare.js';
import { buildExchanges } from '../../src/recording/exchanges.js';
import { checkIgnorePath, normalizeIgnorePath, withoutIgnored } from '../../src/recording/ignore.js';
import type { RecordedFrame, RecordedSession } from '../../src/recording/load.js';
import { createMatcher } from '../../src/recording/matcher.js';
import { initializeAnswer, missAnswer } from '../../src/mock/mock-answers.js';

/** A recorded frame; a response names the seq of its request (`related`), as the spy records it. */
function frame(seq: number, dir: 'c2s' | 's2c', message: Record<string, unknown>, related?: number): RecordedFrame {
  const kind = 'method' in message ? ('id' in message ? 'request' : 'notification') : 'response';
  const entry: RecordedFrame['entry'] = { v: 2, seq, t: '', kind, dir, bytes: 0 };
  if (related !== undefined) entry.related = { seq: related, id: message.id as number, method: 'm' };
  return {
    lineNo: seq,
    seq,
    t: seq * 10,
    dir,
    kind,
    message,
    raw: JSON.stringify(message),
    entry,
    ...(typeof message.method === 'string' ? { method: message.method } : {}),
    ...('id' in message ? { id: message.id as number } : {}),
  };
}
const session = (frames: RecordedFrame[]): RecordedSession => ({ id: 's', transport: 'stdio', probe: false, frames });

describe('formatPath', () => {
  it.each([
    [['result', 'content', 0, 'text'], 'result.content[0].text'],
    [['result', '_meta', 'io.modelcontextprotocol/serverInfo'], 'result._meta["io.modelcontextprotocol/serverInfo"]'],
    [[], '$'],
  ])('%j -> %s', (path, text) => expect(formatPath(path)).toBe(text));
});

describe('diffMessages', () => {
  const recorded = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'a' }], _meta: { at: 1 } } };
  it('ignores id, jsonrpc, key order and _meta by the default ignore', () => {
    expect(diffMessages(recorded, { result: { _meta: { at: 2 }, content: [{ text: 'a', type: 'text' }] }, id: 9, jsonrpc: '2.0' }, ['$.._meta'])).toEqual([]);
  });
  it('names added, removed and changed paths', () => {
    const actual = {
      jsonrpc: '2.0',
      id: 1,
      result: {
        content: [
          { type: 'text', text: 'b' },
          { type: 'text', text: 'c' },
        ],
        isError: true,
      },
    };
    expect(diffMessages(recorded, actual, ['$.._meta'])).toEqual([
      { path: 'result.content[0].text', change: 'changed', recorded: 'a', actual: 'b' },
      { path: 'result.content[1]', change: 'added', actual: { type: 'text', text: 'c' } },
      { path: 'result.isError', change: 'added', actual: true },
    ]);
    expect(diffMessages(recorded, { id: 1, error: { code: -32601, message: 'x' } }, [])[0]).toMatchObject({ path: 'result', change: 'removed' });
  });
});

describe('ignore paths', () => {
  it.each([
    ['result.content[*].text', '$.result.content[*].text'],
    ['$..timestamp', '$..timestamp'],
    ['[0]', '$[0]'],
    ['..x', '$..x'],
  ])('%s reads as %s', (path, normal) => expect(normalizeIgnorePath(path)).toBe(normal));
  it.each(['result.content[*].text', '$..timestamp', "$['result']['x-y']", '$..[0]', 'params._meta.progressToken', "$.result.content[?(@.type=='text')].text"])(
    'accepts %s',
    (path) => expect(checkIgnorePath(path)).toBeUndefined(),
  );
  it.each(['$', '$[[[', 'result..', 'foo bar', '$.a[?(@.x'])('refuses %s', (path) => expect(checkIgnorePath(path)).toMatch(/./));
  it('removes what a path selects from a copy, at any depth', () => {
    const value = { params: { timestamp: 1, nested: { timestamp: 2, keep: true } } };
    expect(withoutIgnored(value, ['$..timestamp'])).toEqual({ params: { nested: { keep: true } } });
    expect(value.params.timestamp).toBe(1);
  });
});

describe('createMatcher', () => {
  const frames = [
    frame(1, 'c2s', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'a', arguments: { n: 1 }, _meta: { progressToken: 5 } } }),
    frame(2, 's2c', { jsonrpc: '2.0', id: 1, result: { n: 1 } }, 1),
    frame(3, 'c2s', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'a', arguments: { n: 1 } } }),
    frame(4, 's2c', { jsonrpc: '2.0', id: 2, result: { n: 2 } }, 3),
  ];
  const { client } = buildExchanges(session(frames));
  it('uses matches in recorded order, ignoring _meta, then reports them used up', () => {
    const matcher = createMatcher(client, { ignores: ['$.._meta'], reuse: false });
    const first = matcher.match('tools/call', { arguments: { n: 1 }, name: 'a' });
    const second = matcher.match('tools/call', { name: 'a', arguments: { n: 1 }, _meta: { progressToken: 'x' } });
    expect(first.ok && first.exchange.response?.message.result).toEqual({ n: 1 });
    expect(second.ok && second.exchange.response?.message.result).toEqual({ n: 2 });
    expect(matcher.match('tools/call', { name: 'a', arguments: { n: 1 } })).toMatchObject({ ok: false, reason: 'used-up' });
  });
  it('repeats the last match with reuse, and names the nearest params on a miss', () => {
    const matcher = createMatcher(client, { ignores: ['$.._meta'], reuse: true });
    for (let i = 0; i < 3; i++) matcher.match('tools/call', { name: 'a', arguments: { n: 1 } });
    const again = matcher.match('tools/call', { name: 'a', arguments: { n: 1 } });
    expect(again.ok && again.exchange.response?.message.result).toEqual({ n: 2 });
    const miss = matcher.match('tools/call', { name: 'a', arguments: { n: 7 } });
    expect(miss).toMatchObject({ ok: false, reason: 'no-match', nearest: { name: 'a', arguments: { n: 1 } } });
    if (!miss.ok)
      expect(missAnswer({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'a', arguments: { n: 7 } } }, miss, ['$.._meta'])).toMatchObject({
        id: 3,
        error: { code: -32602 },
      });
    expect(matcher.match('tools/fly', {})).toMatchObject({ ok: false, reason: 'unknown-method', recordedMethods: ['tools/call'] });
  });
  it('matches a long recording in recorded order, each match costing its own key (not the whole recording)', () => {
    const count = 50_000;
    const many = Array.from({ length: count }, (_, at) => [
      frame(2 * at + 1, 'c2s', { jsonrpc: '2.0', id: at, method: 'tools/call', params: { name: 'a', arguments: { q: at % 50 } } }),
      frame(2 * at + 2, 's2c', { jsonrpc: '2.0', id: at, result: { at } }, 2 * at + 1),
    ]).flat();
    const matcher = createMatcher(buildExchanges(session(many)).client, { ignores: [], reuse: false });
    const answered = Array.from({ length: count }, (_, at) => {
      const found = matcher.match('tools/call', { name: 'a', arguments: { q: at % 50 } });
      return found.ok ? found.exchange.response?.message.result : undefined;
    });
    // Before the index: minutes (every match filtered all 50,000), past the test's time; now well
    // under a second. The test's timeout is the bound: no clock read that a loaded machine can miss.
    expect(answered.every((result, at) => (result as { at: number }).at === at)).toBe(true);
    expect(matcher.unused()).toEqual([]);
  });
});

describe('buildExchanges', () => {
  it('pairs by id per direction and places server frames during or after client requests', () => {
    const frames = [
      frame(1, 'c2s', { jsonrpc: '2.0', method: 'notifications/initialized' }),
      frame(2, 's2c', { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }),
      frame(3, 'c2s', { jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: 'ask' } }),
      frame(4, 's2c', { jsonrpc: '2.0', id: 0, method: 'sampling/createMessage', params: {} }),
      frame(5, 'c2s', { jsonrpc: '2.0', id: 0, result: { content: 'ok' } }, 4),
      frame(6, 's2c', { jsonrpc: '2.0', id: 0, result: { done: true } }, 3),
    ];
    const { client, server } = buildExchanges(session(frames));
    expect(
      client.map((exchange) => [exchange.request.seq, exchange.response?.seq, exchange.during.map((f) => f.seq), exchange.after.map((f) => f.seq)]),
    ).toEqual([
      [1, undefined, [], [2]],
      [3, 6, [4], []],
    ]);
    expect(server.map((exchange) => [exchange.request.seq, exchange.response?.seq])).toEqual([[4, 5]]);
  });

  it('pairs as the record says (related.seq), not by id again: a reused id and an orphan', () => {
    const frames = [
      frame(1, 'c2s', { jsonrpc: '2.0', id: 7, method: 'tools/list' }),
      frame(2, 'c2s', { jsonrpc: '2.0', id: 7, method: 'ping' }),
      // The answer to the first request, though the second shares its id.
      frame(3, 's2c', { jsonrpc: '2.0', id: 7, result: { tools: [] } }, 1),
      // A response the spy paired with nothing (an orphan): it answers neither.
      {
        ...frame(4, 's2c', { jsonrpc: '2.0', id: 7, result: {} }),
        entry: { v: 2, seq: 4, t: '', kind: 'response', dir: 's2c', bytes: 0, notes: ['orphan-response'] } satisfies RecordedFrame['entry'],
      },
    ];
    const { client } = buildExchanges(session(frames));
    expect(client.map((exchange) => [exchange.request.seq, exchange.response?.seq])).toEqual([
      [1, 3],
      [2, undefined],
    ]);
  });

  it('pairs by direction and id only a response whose record says nothing of its request (written by hand)', () => {
    const frames = [frame(1, 'c2s', { jsonrpc: '2.0', id: 'a', method: 'ping' }), frame(2, 's2c', { jsonrpc: '2.0', id: 'a', result: {} })];
    expect(buildExchanges(session(frames)).client.map((exchange) => exchange.response?.seq)).toEqual([2]);
  });
});

describe('initializeAnswer', () => {
  it('answers with the client id and the revision it asked for', () => {
    const recorded = { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: {} } };
    expect(initializeAnswer(recorded, { jsonrpc: '2.0', id: 'x', method: 'initialize', params: { protocolVersion: '2025-03-26' } })).toEqual({
      jsonrpc: '2.0',
      id: 'x',
      result: { protocolVersion: '2025-03-26', capabilities: {} },
    });
    expect(initializeAnswer(recorded, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '1999-01-01' } })).toMatchObject({
      result: { protocolVersion: '2025-11-25' },
    });
  });
});

describe('updateRecording', () => {
  it('leaves a span of several captured frames whole: its frames have no line of their own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-spy-update-'));
    try {
      const path = join(dir, 'wire.jsonl');
      const span = `${JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} })}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, result: {} })}\n`;
      const lines = [
        '{"v":2,"seq":1,"t":"2026-07-28T10:00:00.000Z","session":"k3v","kind":"spawn","transport":"stdio","command":["srv"],"pid":7,"cwd":"/","spy":"0.1.0"}',
        `{"v":2,"seq":2,"t":"2026-07-28T10:00:00.010Z","session":"k3v","kind":"captured","dir":"s2c","bytes":${Buffer.byteLength(span)},"frames":2,"raw":${JSON.stringify(span)}}`,
        '',
      ];
      writeFileSync(path, lines.join('\n'));
      const entry = { v: 2, seq: 3, t: '2026-07-28T10:00:00.010Z', session: 'k3v', dir: 's2c', kind: 'response', id: 2, bytes: 36 } as const;
      const frame = {
        lineNo: 2,
        seq: 3,
        t: 0,
        dir: 's2c',
        kind: 'response',
        message: { jsonrpc: '2.0', id: 2, result: {} },
        id: 2,
        raw: '',
        entry,
      } as unknown as FrameChange['frame'];
      expect(await updateRecording(path, [{ frame, message: { jsonrpc: '2.0', id: 2, result: { changed: true } } }])).toBe(0);
      expect(readFileSync(path, 'utf8')).toBe(lines.join('\n'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
