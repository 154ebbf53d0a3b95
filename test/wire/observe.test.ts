import { describe, expect, it } from 'vitest';
import { createCorrelator } from '../../src/wire/correlate/correlate.js';
import type { Direction } from '../../src/wire/classify/kinds.js';
import { observeFrame, type FrameObservation } from '../../src/wire/observe/observe-frame.js';

/** Runs a conversation through the pipeline: each step is a direction and a line (object or text). */
function run(steps: [Direction, unknown, number?][], transport: 'stdio' | 'http' = 'stdio') {
  const correlator = createCorrelator();
  let seq = 0;
  const observations: FrameObservation[] = [];
  const spliced: (string | undefined)[] = [];
  for (const [dir, message, timeMs = 0] of steps) {
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    for (const { observation, json } of observeFrame({ bytes: Buffer.from(text) }, { dir, correlator, nextSeq: () => ++seq, timeMs, transport })) {
      observations.push(observation);
      spliced.push(json?.toString());
    }
  }
  return { observations, correlator, spliced };
}

const init = (id: number, version = '2025-06-18') => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'c', version: '1' } },
});
const result = (id: unknown, value: unknown = {}) => ({ jsonrpc: '2.0', id, result: value });

describe('observeFrame and the correlator', () => {
  it('pairs a response with its request, carrying method, tool and latency', () => {
    const { observations } = run([
      ['c2s', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search', arguments: {} } }, 100],
      ['s2c', result(3, { content: [] }), 142.5],
    ]);
    expect(observations[0]).toMatchObject({ kind: 'request', method: 'tools/call', tool: 'search', id: 3 });
    expect(observations[1]).toMatchObject({ kind: 'response', method: 'tools/call', tool: 'search', id: 3, latencyMs: 42.5, related: { seq: 1, id: 3 } });
  });

  it('marks a tool error only on a tools/call response', () => {
    const { observations } = run([
      ['c2s', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } }],
      ['s2c', result(1, { content: [], isError: true })],
      ['c2s', { jsonrpc: '2.0', id: 2, method: 'custom/thing' }],
      ['s2c', result(2, { isError: true })],
    ]);
    expect(observations.map((o) => o.kind)).toEqual(['request', 'tool-error', 'request', 'response']);
  });

  it('correlates requests of the server with responses of the client', () => {
    const { observations } = run([
      ['s2c', { jsonrpc: '2.0', id: 0, method: 'roots/list' }],
      ['c2s', { jsonrpc: '2.0', id: 0, method: 'tools/list' }],
      ['c2s', result(0, { roots: [] })],
      ['s2c', result(0, { tools: [] })],
    ]);
    expect(observations[2]).toMatchObject({ kind: 'response', method: 'roots/list', dir: 'c2s' });
    expect(observations[3]).toMatchObject({ kind: 'response', method: 'tools/list', dir: 's2c' });
  });

  it('tells 1 and "1" apart', () => {
    const { observations } = run([
      ['c2s', { jsonrpc: '2.0', id: 1, method: 'ping' }],
      ['s2c', result('1')],
    ]);
    expect(observations[1]!.notes).toEqual(['orphan-response']);
  });

  it.each([
    ['orphan-response', [['s2c', result(9)]], 0, ['orphan-response']],
    [
      'duplicate-id',
      [
        ['c2s', { jsonrpc: '2.0', id: 1, method: 'ping' }],
        ['s2c', result(1)],
        ['c2s', { jsonrpc: '2.0', id: 1, method: 'ping' }],
      ],
      2,
      ['duplicate-id'],
    ],
    ['id-null', [['c2s', { jsonrpc: '2.0', id: null, method: 'ping' }]], 0, ['id-null']],
    [
      'unknown progress token',
      [['s2c', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 5, progress: 1 } }]],
      0,
      ['unknown-progress-token'],
    ],
    ['stdout noise', [['s2c', 'Server starting...']], 0, ['stdout-noise', 'not-json']],
    ['non-JSON from the client', [['c2s', 'hello']], 0, ['not-json']],
  ] as [string, [Direction, unknown][], number, string[]][])('notes %s', (_name, steps, index, notes) => {
    expect(run(steps).observations[index]!.notes).toEqual(notes);
  });

  it('does not call HTTP bodies stdout noise', () => {
    expect(run([['s2c', 'oops']], 'http').observations[0]!.notes).toEqual(['not-json']);
  });

  it('links progress and cancellation to their request', () => {
    const { observations } = run([
      ['c2s', { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'slow', _meta: { progressToken: 'p1' } } }],
      ['s2c', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p1', progress: 1, total: 2 } }],
      ['c2s', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 4 } }],
    ]);
    expect(observations[1]).toMatchObject({ kind: 'notification', related: { seq: 1, id: 4, method: 'tools/call', tool: 'slow' } });
    expect(observations[2]).toMatchObject({ kind: 'notification', related: { seq: 1, id: 4 } });
    expect(observations[1]!.notes).toBeUndefined();
  });

  it('follows the revision from initialize and its result', () => {
    const { observations, correlator } = run([
      ['c2s', init(0, '2025-11-25')],
      ['s2c', result(0, { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 's', version: '1' } })],
      ['c2s', { jsonrpc: '2.0', method: 'notifications/initialized' }],
    ]);
    expect(observations.map((o) => o.rev)).toEqual(['2025-11-25', '2025-06-18', '2025-06-18']);
    expect(correlator.revision).toBe('2025-06-18');
  });

  it('reads the 2026-07-28 revision from _meta and from server/discover', () => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
    expect(run([['c2s', { jsonrpc: '2.0', id: 0, method: 'tools/list', params: { _meta: meta } }]]).observations[0]!.rev).toBe('2026-07-28');
    const discover = run([
      ['c2s', { jsonrpc: '2.0', id: 'p', method: 'server/discover' }],
      ['s2c', result('p', { supportedVersions: ['2026-07-28'], capabilities: {} })],
    ]);
    expect(discover.observations[1]!.rev).toBe('2026-07-28');
  });

  it('allows id reuse after the answer in 2026-07-28, not before', () => {
    const meta = { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } };
    const { observations } = run([
      ['c2s', { jsonrpc: '2.0', id: 0, method: 'tools/list', params: meta }],
      ['s2c', result(0)],
      ['c2s', { jsonrpc: '2.0', id: 0, method: 'tools/list', params: meta }],
    ]);
    expect(observations[2]!.notes).toBeUndefined();
  });

  it('lists unanswered requests, oldest first', () => {
    const { correlator } = run([
      ['c2s', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
      ['c2s', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 't' } }],
      ['s2c', result(1)],
    ]);
    expect(correlator.unanswered()).toMatchObject([{ id: 2, method: 'tools/call', tool: 't', seq: 2 }]);
  });

  it('classifies batch members one by one, and flags batches the revision forbids', () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ];
    const { observations: allowed, spliced } = run([['c2s', batch]]);
    expect(allowed.map((o) => [o.kind, o.batch])).toEqual([
      ['request', { index: 0, count: 2 }],
      ['notification', { index: 1, count: 2 }],
    ]);
    // The first member carries the frame's own text; the others their own JSON.
    expect(spliced).toEqual([JSON.stringify(batch), JSON.stringify(batch[1])]);
    expect(allowed[0]!.raw).toBeUndefined();
    const forbidden = run([
      ['c2s', init(0)],
      ['s2c', result(0, { protocolVersion: '2025-06-18' })],
      ['c2s', batch],
    ]).observations.slice(2);
    expect(forbidden.map((o) => o.kind)).toEqual(['invalid', 'invalid']);
    expect(forbidden[0]!.notes).toContain('batch-forbidden');
  });

  it('records bytes that are not UTF-8 in base64, and a cut frame with a note', () => {
    const correlator = createCorrelator();
    const [bad] = observeFrame({ bytes: Buffer.from([0xff, 0x0a]) }, { dir: 's2c', correlator, nextSeq: () => 1, timeMs: 0, transport: 'stdio' });
    expect(bad!.observation).toMatchObject({ kind: 'invalid', rawBase64: '/wo=', notes: ['stdout-noise', 'not-utf8'] });
    const [cut] = observeFrame(
      { bytes: Buffer.from('{"jsonrpc"'), size: 5000, truncated: true },
      { dir: 's2c', correlator, nextSeq: () => 2, timeMs: 0, transport: 'stdio' },
    );
    expect(cut!.observation).toMatchObject({ kind: 'invalid', truncated: true, bytes: 5000, notes: ['frame-too-large'] });
  });

  it('names the error codes of 2026-07-28 (-32020..-32022) and those before, in the record', () => {
    const error = (id: number, code: number) => ({ jsonrpc: '2.0', id, error: { code, message: 'refused' } });
    const steps: [Direction, unknown][] = [-32020, -32021, -32022, -32042, -32002].flatMap((code, at): [Direction, unknown][] => [
      ['c2s', { jsonrpc: '2.0', id: at, method: 'tools/list' }],
      ['s2c', error(at, code)],
    ]);
    const names = run(steps)
      .observations.filter((observation) => observation.kind === 'protocol-error')
      .map((observation) => `${observation.error?.code} ${observation.errorName}`);
    expect(names).toEqual([
      '-32020 Header mismatch',
      '-32021 Missing required client capability',
      '-32022 Unsupported protocol version',
      '-32042 URL elicitation required',
      '-32002 Resource not found',
    ]);
  });
});
