import { ExportResultCode } from '@opentelemetry/core';
import { PeriodicExportingMetricReader, type IMetricReader } from '@opentelemetry/sdk-metrics';
import type { NoteEntry, RecordEntry } from '../record/schema.js';
import { sanitize } from '../render/sanitize.js';
import type { SessionPlace } from './mcp-attributes.js';
import { createMcpMetrics } from './mcp-metrics.js';
import { startMetricsEndpoint } from './metrics-endpoint.js';
import { createOtlpExporters, resourceOf, type OtlpSettings } from './otlp-config.js';
import { readableSpanOf } from './readable-span.js';
import { createSpanQueue, type SendResult } from './span-queue.js';
import { createTelemetryModel } from './telemetry-model.js';

/** What the live exporters need, as the options gave it (it crosses to the observer thread). */
export interface ExportConfig {
  otlp?: OtlpSettings;
  /** --otlp-content: tool arguments and results on the spans, after redaction. */
  otlpContent?: boolean;
  /** --metrics: where the Prometheus scrape endpoint listens. */
  metrics?: { host: string; port: number };
  spyVersion: string;
  place: SessionPlace;
}

/** One more reader of the entries as the recorder emits them (the record's `sinks`). */
export interface ExportSink {
  entry(entry: RecordEntry, message?: unknown): void;
  close(): Promise<void>;
}

export interface ExportSinkDeps {
  /** Said once each on stderr. */
  warn: (message: string) => void;
  /** An event in the record (what the exporter dropped). */
  note: (fields: Partial<NoteEntry>) => void;
}

/**
 * How long closing may wait for the collector in all: the spans still queued, then the last metrics
 * and the exporters' shutdown share what is left. It stays well inside the spy's drain time, so a
 * collector that never answers cannot cost the record its end.
 */
const closeMs = 700;
const shutdownMs = 500;

/**
 * The live OpenTelemetry exports of a spy (`--otlp`, `--metrics`), fed entry by entry on the observer
 * thread: spans to an OTLP collector through a bounded queue, metrics over OTLP and to a Prometheus
 * scrape endpoint. Nothing here touches the traffic; a collector's trouble is said once and counted.
 */
export function createExportSink(config: ExportConfig, deps: ExportSinkDeps): ExportSink {
  const model = createTelemetryModel({ content: config.otlpContent === true, place: config.place });
  const resource = resourceOf(config.spyVersion);
  const scope = { name: 'mcp-spy', version: config.spyVersion };
  const exporters = config.otlp ? createOtlpExporters(config.otlp) : undefined;
  const endpoint = config.metrics ? startMetricsEndpoint(config.metrics.host, config.metrics.port) : undefined;
  endpoint?.listening.then(
    (url) => deps.warn(`metrics for Prometheus at ${url}`),
    (error: Error) =>
      deps.warn(`cannot serve metrics on ${config.metrics!.host}:${config.metrics!.port}: ${error.message}; the traffic keeps flowing without them`),
  );
  const readers: IMetricReader[] = [];
  if (endpoint) readers.push(endpoint.reader);
  if (exporters)
    readers.push(
      new PeriodicExportingMetricReader({ exporter: exporters.metrics, exportIntervalMillis: Number(process.env.OTEL_METRIC_EXPORT_INTERVAL) || 60_000 }),
    );
  const metrics = readers.length > 0 ? createMcpMetrics(resource, scope, readers) : undefined;

  const send = (spans: Parameters<typeof readableSpanOf>[0][]) =>
    new Promise<SendResult>((resolve) =>
      exporters!.spans.export(
        spans.map((span) => readableSpanOf(span, resource, scope)),
        (result) => resolve(result.code === ExportResultCode.SUCCESS ? { ok: true } : { ok: false, reason: result.error?.message ?? 'export failed' }),
      ),
    );
  const queue = exporters
    ? createSpanQueue(send, {
        // What the collector said (its reason phrase) is from outside: made safe for a terminal.
        pendingReason: () => exporters.connections.trouble()?.message,
        onFirstFailure: (reason) =>
          deps.warn(
            `cannot export spans to ${config.otlp!.shownUrl}: ${sanitize(reason)}; the traffic is not affected, spans are dropped and counted in the record`,
          ),
      })
    : undefined;

  const take = (items: ReturnType<typeof model.add>) => {
    for (const item of items) {
      if (item.type === 'span') queue?.push(item.span);
      else metrics?.record(item);
    }
  };

  return {
    entry(entry, message) {
      try {
        take(model.add(entry, message));
      } catch (error) {
        // The exports are a reader like the log: their trouble stops them, never the record.
        deps.warn(`the OpenTelemetry export stopped: ${(error as Error).message}`);
      }
    },
    async close() {
      take(model.finish());
      const outcome = await queue?.close(closeMs);
      if (outcome && outcome.dropped > 0) {
        deps.note({
          notes: ['spans-dropped'],
          text: `OTLP export to ${config.otlp!.shownUrl} failed (${outcome.reason ?? 'unknown'}): ${outcome.dropped} span(s) dropped`,
          lost: outcome.dropped,
          reason: outcome.reason,
        });
      }
      // The exporters' shutdown waits for requests in flight: bounded, or a collector that never answers holds the exit.
      const shutdowns = [metrics?.shutdown(), exporters?.spans.shutdown()].map((work) => work?.catch(() => {}));
      await Promise.race([Promise.all(shutdowns), new Promise((resolve) => setTimeout(resolve, shutdownMs).unref())]);
      await endpoint?.close();
    },
  };
}
