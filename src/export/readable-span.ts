import { createTraceState, SpanKind, SpanStatusCode, TraceFlags, type HrTime } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { SpanData } from './telemetry-model.js';

const kinds = { client: SpanKind.CLIENT, server: SpanKind.SERVER, internal: SpanKind.INTERNAL } satisfies Record<SpanData['kind'], SpanKind>;

/** The instrumentation scope of the spy's spans and metrics. */
export interface InstrumentationScope {
  name: string;
  version: string;
}

function hrTimeOf(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

/** A span of the model as the OpenTelemetry exporters take it (a ReadableSpan, ended). */
export function readableSpanOf(span: SpanData, resource: Resource, scope: InstrumentationScope): ReadableSpan {
  const context = {
    traceId: span.traceId,
    spanId: span.spanId,
    traceFlags: TraceFlags.SAMPLED,
    ...(span.traceState ? { traceState: createTraceState(span.traceState) } : {}),
  };
  return {
    name: span.name,
    kind: kinds[span.kind],
    spanContext: () => context,
    ...(span.parentSpanId
      ? { parentSpanContext: { traceId: span.traceId, spanId: span.parentSpanId, traceFlags: TraceFlags.SAMPLED, isRemote: span.links.length > 0 } }
      : {}),
    startTime: hrTimeOf(span.startMs),
    endTime: hrTimeOf(span.endMs),
    duration: hrTimeOf(span.endMs - span.startMs),
    status: span.status.error
      ? { code: SpanStatusCode.ERROR, ...(span.status.message !== undefined ? { message: span.status.message } : {}) }
      : { code: SpanStatusCode.UNSET },
    attributes: span.attributes,
    links: span.links.map((link) => ({ context: { traceId: link.traceId, spanId: link.spanId, traceFlags: TraceFlags.SAMPLED } })),
    events: span.events.map((event) => ({ name: event.name, time: hrTimeOf(event.timeMs), attributes: event.attributes })),
    ended: true,
    resource,
    instrumentationScope: scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}
