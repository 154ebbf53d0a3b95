// A test OTLP/HTTP receiver on 127.0.0.1: decodes what it gets (protobuf or JSON) with the official
// OTLP definitions (the protobufjs root generated from opentelemetry-proto) and keeps the spans and metrics.
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const root = require('@opentelemetry/otlp-proto-exporter-base/build/src/generated/root.js').opentelemetry.proto;
const traceRequest = root.collector.trace.v1.ExportTraceServiceRequest;
const metricsRequest = root.collector.metrics.v1.ExportMetricsServiceRequest;

type AnyValue = { stringValue?: string; intValue?: string; boolValue?: boolean; doubleValue?: number; arrayValue?: { values?: AnyValue[] } };
type KeyValue = { key: string; value?: AnyValue };

export interface ReceivedSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  traceState: string;
  startMs: number;
  endMs: number;
  attributes: Record<string, string | number | boolean | undefined>;
  events: { name: string; attributes: Record<string, unknown> }[];
  links: { traceId: string; spanId: string }[];
  status: { code: number; message: string };
  resource: Record<string, unknown>;
}

const hex = (base64: string | undefined) => Buffer.from(base64 ?? '', 'base64').toString('hex');
const plainValue = (value: AnyValue | undefined) =>
  value?.stringValue ?? (value?.intValue !== undefined ? Number(value.intValue) : undefined) ?? value?.boolValue ?? value?.doubleValue;
const attributesOf = (list: KeyValue[] | undefined) => Object.fromEntries((list ?? []).map(({ key, value }) => [key, plainValue(value)]));

/** OTLP/JSON writes ids in hex where protobuf's JSON mapping has base64: turned back before the official decoder reads it. */
function idsToBase64(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => idsToBase64(item));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, idsToBase64(v, k)]));
  if (typeof value === 'string' && /^(traceId|spanId|parentSpanId)$/.test(key)) return Buffer.from(value, 'hex').toString('base64');
  return value;
}

function decode(type: typeof traceRequest, body: Buffer, contentType: string) {
  const message = contentType.includes('json') ? type.fromObject(idsToBase64(JSON.parse(body.toString('utf8')))) : type.decode(body);
  return type.toObject(message, { longs: String, bytes: String, enums: Number, defaults: true });
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** Metric names with the points' attributes and counts, as received. */
  metrics: { name: string; unit: string; points: { attributes: Record<string, unknown>; count?: number; bounds?: number[] }[] }[];
  contentTypes: string[];
  close(): Promise<void>;
}

/** Starts a receiver on a free port of 127.0.0.1. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const receiver = { spans: [], metrics: [], contentTypes: [] } as unknown as OtlpReceiver;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const contentType = request.headers['content-type'] ?? '';
      receiver.contentTypes.push(contentType);
      const body = Buffer.concat(chunks);
      if (request.url === '/v1/traces') {
        const decoded = decode(traceRequest, body, contentType);
        for (const resourceSpans of decoded.resourceSpans) {
          const resource = attributesOf(resourceSpans.resource?.attributes);
          for (const scopeSpans of resourceSpans.scopeSpans) {
            for (const span of scopeSpans.spans) {
              receiver.spans.push({
                name: span.name,
                kind: span.kind,
                traceId: hex(span.traceId),
                spanId: hex(span.spanId),
                parentSpanId: hex(span.parentSpanId),
                traceState: span.traceState,
                startMs: Number(BigInt(span.startTimeUnixNano) / 1_000_000n),
                endMs: Number(BigInt(span.endTimeUnixNano) / 1_000_000n),
                attributes: attributesOf(span.attributes),
                events: span.events.map((event: { name: string; attributes: KeyValue[] }) => ({
                  name: event.name,
                  attributes: attributesOf(event.attributes),
                })),
                links: span.links.map((link: { traceId: string; spanId: string }) => ({ traceId: hex(link.traceId), spanId: hex(link.spanId) })),
                status: { code: span.status?.code ?? 0, message: span.status?.message ?? '' },
                resource,
              });
            }
          }
        }
      } else if (request.url === '/v1/metrics') {
        const decoded = decode(metricsRequest, body, contentType);
        for (const resourceMetrics of decoded.resourceMetrics) {
          for (const scopeMetrics of resourceMetrics.scopeMetrics) {
            for (const metric of scopeMetrics.metrics) {
              const points = (metric.histogram?.dataPoints ?? metric.sum?.dataPoints ?? []).map(
                (point: { attributes: KeyValue[]; count?: string; explicitBounds?: number[] }) => ({
                  attributes: attributesOf(point.attributes),
                  ...(point.count !== undefined ? { count: Number(point.count) } : {}),
                  ...(point.explicitBounds ? { bounds: point.explicitBounds } : {}),
                }),
              );
              receiver.metrics.push({ name: metric.name, unit: metric.unit, points });
            }
          }
        }
      }
      response
        .writeHead(200, { 'content-type': contentType.includes('json') ? 'application/json' : 'application/x-protobuf' })
        .end(contentType.includes('json') ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  receiver.close = () => new Promise((resolve) => server.close(() => resolve()));
  return receiver;
}
