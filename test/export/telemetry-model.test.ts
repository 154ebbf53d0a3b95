import { describe, expect, it } from 'vitest';
import { createTelemetryModel, type SpanData, type Telemetry } from '../../src/export/telemetry-model.js';
import { remoteParentOf } from '../../src/export/trace-ids.js';
import { withUnitSuffixes } from '../../src/export/metrics-endpoint.js';
import type { TestEntry } from '../helpers/spy.js';

const t = (ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString();
const frame = (seq: number, ms: number, fields: Partial<TestEntry>, message: object): [TestEntry, unknown] => [
  { v: 2, seq, t: t(ms), session: 's1', kind: 'request', raw: JSON.stringify(message), ...fields } as TestEntry,
  message,
];

function run(entries: [TestEntry, unknown][], options = {}) {
  const model = createTelemetryModel(options);
  const out: Telemetry[] = entries.flatMap(([entry, message]) => model.add(entry, message));
  out.push(...model.finish());
  const spans = out.filter((item): item is { type: 'span'; span: SpanData } => item.type === 'span').map((item) => item.span);
  return { out, spans, byName: (name: string) => spans.find((span) => span.name === name)! };
}

describe('the telemetry model', () => {
  it("ends a span with its response, with the conventions' names, attributes and errors", () => {
    const { spans, byName, out } = run(
      [
        [{ v: 2, seq: 1, t: t(0), session: 's1', kind: 'spawn', transport: 'stdio' } as TestEntry, undefined],
        frame(
          2,
          10,
          { dir: 'c2s', method: 'tools/call', id: 7, tool: 'get_weather', rev: '2025-06-18' },
          { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_weather', arguments: { city: 'Oslo' } } },
        ),
        frame(3, 20, { dir: 's2c', kind: 'notification', method: 'notifications/progress', related: { seq: 2, id: 7, method: 'tools/call' } }, {}),
        frame(
          4,
          260,
          { dir: 's2c', kind: 'tool-error', method: 'tools/call', id: 7, related: { seq: 2, id: 7, method: 'tools/call' } },
          { jsonrpc: '2.0', id: 7, result: { isError: true, content: [{ type: 'text', text: 'no such city' }] } },
        ),
        frame(5, 300, { dir: 'c2s', method: 'prompts/get', id: 'p', prompt: 'review' }, {}),
        frame(
          6,
          310,
          {
            dir: 's2c',
            kind: 'protocol-error',
            id: 'p',
            error: { code: -32602, message: 'unknown prompt' },
            related: { seq: 5, id: 'p', method: 'prompts/get' },
          },
          {},
        ),
        frame(7, 320, { dir: 'c2s', method: 'ping', id: null }, {}),
        [{ v: 2, seq: 8, t: t(400), session: 's1', kind: 'exit', code: 0 } as TestEntry, undefined],
      ],
      { content: true },
    );
    const call = byName('tools/call get_weather');
    expect(call).toMatchObject({ kind: 'client', startMs: Date.parse(t(10)), endMs: Date.parse(t(260)), status: { error: true, message: 'no such city' } });
    expect(call.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'jsonrpc.request.id': '7',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.operation.name': 'execute_tool',
      'error.type': 'tool_error',
      'network.transport': 'pipe',
      'mcp.protocol.version': '2025-06-18',
      'mcp.session.id': 's1',
      'gen_ai.tool.call.arguments': '{"city":"Oslo"}',
    });
    expect(call.events.map((event) => event.name)).toEqual(['notifications/progress']);
    expect(byName('prompts/get review').attributes).toMatchObject({
      'error.type': '-32602',
      'rpc.response.status_code': '-32602',
      'gen_ai.prompt.name': 'review',
    });
    // A null id is no jsonrpc.request.id; a request never answered ends with its session.
    expect(byName('ping').attributes['jsonrpc.request.id']).toBeUndefined();
    expect(byName('ping').attributes['error.type']).toBe('unanswered');
    const session = byName('mcp-spy session');
    expect(session).toMatchObject({ kind: 'internal', startMs: Date.parse(t(0)), endMs: Date.parse(t(400)) });
    expect(spans.filter((span) => span !== session).every((span) => span.parentSpanId === session.spanId && span.traceId === session.traceId)).toBe(true);
    const operation = out.find((item) => item.type === 'operation' && item.attributes['gen_ai.tool.name'] === 'get_weather');
    expect(operation).toMatchObject({ side: 'client', seconds: 0.25 });
  });

  it('ends the spans of requests owed no answer as the record says, not as unanswered', () => {
    const { byName } = run([
      frame(1, 0, { dir: 'c2s', method: 'tools/call', id: 1, tool: 'slow' }, {}),
      frame(2, 5, { dir: 'c2s', kind: 'notification', method: 'notifications/cancelled', related: { seq: 1, id: 1, method: 'tools/call', tool: 'slow' } }, {}),
      frame(3, 10, { dir: 'c2s', method: 'tools/list', id: 2 }, {}),
      [
        {
          v: 2,
          seq: 4,
          t: t(12),
          session: 's1',
          kind: 'http',
          httpMethod: 'POST',
          status: 404,
          summary: 'Not Found; session unknown or expired',
          requests: [{ seq: 3, dir: 'c2s', id: 2, method: 'tools/list' }],
        } as TestEntry,
        undefined,
      ],
      frame(5, 20, { dir: 's2c', method: 'roots/list', id: 0 }, {}),
      [
        {
          v: 2,
          seq: 6,
          t: t(30),
          session: 's1',
          kind: 'note',
          notes: ['client-closed'],
          text: 'the client closed its input without answering roots/list #0',
          related: { seq: 5, id: 0, method: 'roots/list' },
        } as TestEntry,
        undefined,
      ],
    ]);
    expect(byName('tools/call slow').attributes['error.type']).toBe('cancelled');
    expect(byName('tools/list')).toMatchObject({ endMs: Date.parse(t(12)), attributes: { 'error.type': '404' } });
    expect(byName('roots/list')).toMatchObject({ endMs: Date.parse(t(30)), attributes: { 'error.type': 'client_closed' } });
  });

  it('puts on each metric only the attributes the conventions list for it', () => {
    const place = { transport: 'http' as const, server: { address: '10.0.0.7', port: 3000 } };
    const { out } = run(
      [
        frame(1, 0, { dir: 'c2s', method: 'tools/list', id: 1, rev: '2025-06-18' }, {}),
        frame(2, 5, { dir: 's2c', kind: 'response', related: { seq: 1, id: 1, method: 'tools/list' } }, {}),
        frame(3, 10, { dir: 's2c', method: 'roots/list', id: 0 }, {}),
        frame(4, 12, { dir: 'c2s', kind: 'response', related: { seq: 3, id: 0, method: 'roots/list' } }, {}),
      ],
      { place },
    );
    const measured = (type: string, side?: string) =>
      out.find((item) => item.type === type && (side === undefined || (item as { side?: string }).side === side)) as { attributes: Record<string, unknown> };
    const http = { 'network.transport': 'tcp', 'network.protocol.name': 'http', 'network.protocol.version': '1.1', 'mcp.protocol.version': '2025-06-18' };
    // mcp.client.operation.duration and mcp.client.session.duration list server.address and server.port ...
    expect(measured('operation', 'client').attributes).toEqual({ 'mcp.method.name': 'tools/list', ...http, 'server.address': '10.0.0.7', 'server.port': 3000 });
    expect(measured('session').attributes).toEqual({ ...http, 'server.address': '10.0.0.7', 'server.port': 3000 });
    // ... mcp.server.operation.duration does not.
    expect(measured('operation', 'server').attributes).toEqual({ 'mcp.method.name': 'roots/list', ...http });
  });

  it('makes a notification an event of the request whose HTTP stream carried it, and gives no mcp.session.id where there is no session', () => {
    const { byName } = run(
      [
        frame(1, 0, { dir: 'c2s', method: 'tools/call', id: 1, tool: 'slow', exchange: 4, rev: '2025-06-18' }, {}),
        // A log line on the call's own stream, and one on the GET stream: the second belongs to no request.
        frame(2, 5, { dir: 's2c', kind: 'notification', method: 'notifications/message', exchange: 4 }, {}),
        frame(3, 6, { dir: 's2c', kind: 'notification', method: 'notifications/message', exchange: 2 }, {}),
        frame(4, 9, { dir: 's2c', kind: 'response', exchange: 4, related: { seq: 1, id: 1, method: 'tools/call' } }, {}),
        frame(5, 10, { dir: 'c2s', method: 'tools/list', id: 2, exchange: 5, session: 'x-5', rev: '2026-07-28' }, {}),
      ],
      { place: { transport: 'http' } },
    );
    expect(byName('tools/call slow').events.map((event) => event.name)).toEqual(['notifications/message']);
    expect(byName('mcp-spy session').events.map((event) => event.name)).toEqual(['notifications/message']);
    expect(byName('tools/call slow').attributes['mcp.session.id']).toBe('s1');
    // 2026-07-28 has no sessions, and a stateless exchange is none.
    expect(byName('tools/list').attributes['mcp.session.id']).toBeUndefined();
  });

  it('gives the same ids to the same recording, so live and after-the-fact exports agree', () => {
    const entries = [
      frame(1, 0, { dir: 'c2s', method: 'tools/list', id: 1 }, {}),
      frame(2, 5, { dir: 's2c', kind: 'response', related: { seq: 1, id: 1, method: 'tools/list' } }, {}),
    ];
    expect(run(entries).spans).toEqual(run(entries).spans);
  });

  it.each([
    [
      { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', tracestate: 'a=1' },
      { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', sampled: true, traceState: 'a=1' },
    ],
    [{ traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-01' }, undefined],
    [{ traceparent: 'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }, undefined],
    [{ traceparent: 42 }, undefined],
    [JSON.parse('{"__proto__": {"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}'), undefined],
  ])('reads the traceparent of _meta %j', (meta, expected) => {
    expect(remoteParentOf({ params: { _meta: meta } })).toEqual(expected);
  });

  it('names metrics as the OpenTelemetry-to-Prometheus translation does', () => {
    const metric = (name: string, unit: string) => ({ descriptor: { name, unit, description: '', valueType: 1, type: 'HISTOGRAM' }, dataPoints: [] });
    const input = {
      resource: {},
      scopeMetrics: [{ scope: { name: 'x' }, metrics: [metric('mcp.client.operation.duration', 's'), metric('mcp_spy.frames', '{frame}')] }],
    };
    const names = withUnitSuffixes(input as never).scopeMetrics[0]!.metrics.map((m) => m.descriptor.name);
    expect(names).toEqual(['mcp.client.operation.duration_seconds', 'mcp_spy.frames']);
  });
});
