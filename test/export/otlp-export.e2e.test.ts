import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingHttp, freePort } from '../helpers/http-spy.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.js';
import { everythingServer, node, readEntries, recordSession, runBin, runClient, tempDir, bin } from '../helpers/spy.js';

const CLIENT = 3;
const SERVER = 2;
const INTERNAL = 1;
const ERROR = 2;

/** The spans of one run, by name (several calls of one tool: in the order received). */
const named = (spans: ReceivedSpan[], name: string) => spans.filter((span) => span.name === name);
const one = (spans: ReceivedSpan[], name: string) => {
  const found = named(spans, name);
  expect(found, name).toHaveLength(1);
  return found[0]!;
};

/** What every span of the conventions must carry in the `otel` scenario, whatever the transport. */
function checkConventions(spans: ReceivedSpan[], transport: 'pipe' | 'tcp') {
  const session = one(spans, 'mcp-spy session');
  expect(session.kind).toBe(INTERNAL);
  expect(session.parentSpanId).toBe('');

  const traced = one(spans, 'tools/call echo');
  expect(traced.kind).toBe(CLIENT);
  // The client's traceparent: the span joins its trace, under its span, and links to the session.
  expect(traced.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  expect(traced.parentSpanId).toBe('00f067aa0ba902b7');
  expect(traced.traceState).toBe('rojo=00f067aa0ba902b7');
  expect(traced.links).toEqual([{ traceId: session.traceId, spanId: session.spanId }]);
  expect(traced.attributes).toMatchObject({
    'mcp.method.name': 'tools/call',
    'gen_ai.tool.name': 'echo',
    'gen_ai.operation.name': 'execute_tool',
    'jsonrpc.request.id': '1',
    'mcp.protocol.version': '2025-11-25',
    'network.transport': transport,
  });
  expect(traced.status.code).toBe(0);

  const long = one(spans, 'tools/call trigger-long-running-operation');
  expect(long.traceId).toBe(session.traceId);
  expect(long.parentSpanId).toBe(session.spanId);
  expect(long.events.map((event) => event.name)).toEqual(['notifications/progress', 'notifications/progress']);

  const toolError = one(spans, 'tools/call get-sum');
  expect(toolError.attributes['error.type']).toBe('tool_error');
  expect(toolError.status.code).toBe(ERROR);
  // The peers' words (which may quote what they were sent) only with --otlp-content.
  expect(toolError.status.message || undefined).toBeUndefined();

  const protocolError = one(spans, 'prompts/get no-such-prompt');
  expect(protocolError.attributes).toMatchObject({
    'mcp.method.name': 'prompts/get',
    'gen_ai.prompt.name': 'no-such-prompt',
    'error.type': '-32602',
    'rpc.response.status_code': '-32602',
  });
  expect(protocolError.status.code).toBe(ERROR);
  expect(protocolError.status.message || undefined).toBeUndefined();
  expect(protocolError.attributes['gen_ai.operation.name']).toBeUndefined();

  expect(one(spans, 'prompts/get simple-prompt').attributes['error.type']).toBeUndefined();
  const read = one(spans, 'resources/read');
  expect(read.attributes['mcp.resource.uri']).toMatch(/^demo:\/\/resource\//);
  expect(one(spans, 'initialize').attributes['jsonrpc.request.id']).toBe('0');
  // The server's request to the client: from the client's side, the client serves it.
  expect(one(spans, 'roots/list').kind).toBe(SERVER);
  for (const span of spans) expect(span.resource['service.name'], span.name).toBe('mcp-spy');
  return { session };
}

describe('OpenTelemetry export of a stdio session (server-everything)', () => {
  let receiver: OtlpReceiver;
  const dir = tempDir();
  const record = join(dir.dir, 'wire.jsonl');

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    await runClient(
      'everything-client.js',
      ['--', node, bin, '--record', record, '--no-log', '-q', '--otlp', receiver.url, '--', node, everythingServer, 'stdio'],
      { SCENARIO: 'otel' },
    );
  });
  afterAll(async () => {
    await receiver.close();
    dir.remove();
  });

  it('sends live spans over OTLP/protobuf that follow the MCP conventions', () => {
    expect(receiver.contentTypes).toContain('application/x-protobuf');
    const { session } = checkConventions(receiver.spans, 'pipe');
    const sessionId = readEntries(record)[0]!.session;
    expect(session.attributes['mcp.session.id']).toBe(sessionId);
    expect(one(receiver.spans, 'initialize').attributes['mcp.session.id']).toBe(sessionId);
  });

  it('puts no tool arguments or results on the spans unless asked (--otlp-content)', () => {
    for (const span of receiver.spans) {
      expect(span.attributes['gen_ai.tool.call.arguments'], span.name).toBeUndefined();
      expect(span.attributes['gen_ai.tool.call.result'], span.name).toBeUndefined();
    }
  });

  it('with --otlp-content, puts them on as JSON, after --redact', async () => {
    const content = await startOtlpReceiver();
    try {
      await runClient(
        'everything-client.js',
        [
          '--',
          node,
          bin,
          '--no-record',
          '--no-log',
          '-q',
          '--otlp',
          content.url,
          '--otlp-content',
          '--redact',
          '$.params.arguments.message',
          '--',
          node,
          everythingServer,
          'stdio',
        ],
        { SCENARIO: 'otel' },
      );
      const echo = one(content.spans, 'tools/call echo');
      expect(echo.attributes['gen_ai.tool.call.arguments']).toBe('{"message":"[redacted]"}');
      expect(JSON.parse(String(echo.attributes['gen_ai.tool.call.result']))).toMatchObject({ content: [{ type: 'text' }] });
      // A failed call has no result (the conventions: "if execution was successful").
      expect(one(content.spans, 'tools/call get-sum').attributes['gen_ai.tool.call.result']).toBeUndefined();
      // The errors' own words are the status description, with the content.
      expect(one(content.spans, 'tools/call get-sum').status.message).toContain('Invalid arguments for tool get-sum');
      expect(one(content.spans, 'prompts/get no-such-prompt').status).toEqual({ code: ERROR, message: 'MCP error -32602: Prompt no-such-prompt not found' });
    } finally {
      await content.close();
    }
  });

  it("sends the MCP metrics with the conventions' buckets and attributes", () => {
    const operations = receiver.metrics.filter((metric) => metric.name === 'mcp.client.operation.duration');
    expect(operations.length).toBeGreaterThan(0);
    expect(operations[0]!.unit).toBe('s');
    const points = operations.flatMap((metric) => metric.points);
    expect(points[0]!.bounds).toEqual([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
    const echo = points.find((point) => point.attributes['gen_ai.tool.name'] === 'echo');
    expect(echo).toMatchObject({ count: 1, attributes: { 'mcp.method.name': 'tools/call', 'network.transport': 'pipe' } });
    // No ids on a metric: they would make every point its own series.
    for (const point of points) expect(Object.keys(point.attributes)).not.toContain('jsonrpc.request.id');
    expect(receiver.metrics.some((metric) => metric.name === 'mcp.client.session.duration')).toBe(true);
  });

  it('export otlp of the same recording (OTLP/JSON) sends the same spans, ids and all', async () => {
    const after = await startOtlpReceiver();
    try {
      const result = await runBin(['export', 'otlp', record, '--endpoint', after.url], {
        env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'fleet-spy' },
      });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.text).toMatch(/^exported \d+ span\(s\) of 1 session\(s\) to http:\/\/127\.0\.0\.1:\d+\/v1\/traces\n$/);
      expect(after.contentTypes).toContain('application/json');
      const shape = (spans: ReceivedSpan[]) =>
        spans
          .map(({ name, kind, traceId, spanId, parentSpanId, attributes, status, events }) => ({
            name,
            kind,
            traceId,
            spanId,
            parentSpanId,
            attributes,
            status,
            events: events.length,
          }))
          .sort((a, b) => a.spanId.localeCompare(b.spanId));
      expect(shape(after.spans)).toEqual(shape(receiver.spans));
      expect(after.spans[0]!.resource['service.name']).toBe('fleet-spy');
      // The metrics too, once: a second send of the same cumulative points is only noise for the collector.
      expect(after.metrics.filter((metric) => metric.name === 'mcp.client.operation.duration')).toHaveLength(1);
    } finally {
      await after.close();
    }
  });
});

describe('OpenTelemetry export of an HTTP session', () => {
  it('carries tcp, the server behind the spy and the Mcp-Session-Id', async () => {
    const receiver = await startOtlpReceiver();
    const dir = tempDir();
    try {
      const port = await freePort();
      const { record } = await recordHttpWith(dir.dir, port, receiver.url);
      const { session } = checkConventions(receiver.spans, 'tcp');
      const sessionId = readEntries(record).find((entry) => entry.dir)!.session;
      expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(session.attributes).toMatchObject({
        'mcp.session.id': sessionId,
        'server.address': '127.0.0.1',
        'server.port': port,
        'network.protocol.name': 'http',
      });
    } finally {
      await receiver.close();
      dir.remove();
    }
  });
});

/** recordHttp with --otlp, the server on a port chosen here (so the test knows server.port). */
async function recordHttpWith(dir: string, port: number, otlp: string) {
  const { startSpy } = await import('../helpers/http-spy.js');
  const recordPath = join(dir, 'wire.jsonl');
  const spy = await startSpy(
    ['--target', `http://127.0.0.1:${port}/mcp`, '--record', recordPath, '--no-log', '--otlp', otlp],
    everythingHttp('streamableHttp')(port),
  );
  try {
    await runClient('everything-client.js', ['--url', spy.url], { SCENARIO: 'otel' });
  } finally {
    await spy.dispose();
  }
  return { record: recordPath };
}

describe('a collector that is down', () => {
  it('changes nothing in the traffic, costs one line on stderr and leaves a count in the record', async () => {
    const dir = tempDir();
    try {
      const dead = `http://127.0.0.1:${await freePort()}`;
      const record = join(dir.dir, 'wire.jsonl');
      const direct = await runClient('everything-client.js', ['--', node, everythingServer, 'stdio'], { SCENARIO: 'otel' });
      const spied = await recordSession('everything-client.js', record, [node, everythingServer, 'stdio'], {
        SCENARIO: 'otel',
        OTEL_EXPORTER_OTLP_ENDPOINT: dead,
      });
      expect(spied).toEqual(direct);
      const entries = readEntries(record);
      const note = entries.find((entry) => entry.kind === 'note' && entry.notes?.includes('spans-dropped'));
      expect(note?.text).toMatch(/^OTLP export to http:\/\/127\.0\.0\.1:\d+\/v1\/traces failed \(.+\): \d+ span\(s\) dropped$/);
      // Every span: one a request, and the session's.
      expect(note?.lost).toBe(entries.filter((entry) => entry.kind === 'request').length + 1);
      // The one line: the spy's own stderr, seen through a run of the bin with a stdio client.
      const run = await runBin(['--no-record', '--no-log', '-q', '--otlp', dead, '--', node, everythingServer, 'stdio'], {
        input: `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`,
      });
      const lines = run.stderr.split('\n').filter((line) => line.startsWith('mcp-spy:'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^mcp-spy: cannot export spans to http:\/\/127\.0\.0\.1:\d+\/v1\/traces: .+; the traffic is not affected, spans are dropped and counted in the record$/,
      );
    } finally {
      dir.remove();
    }
  });
});
