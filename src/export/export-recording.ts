import { ExportResultCode } from '@opentelemetry/core';
import { PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import type { RecordEntry } from '../record/schema.js';
import { sanitize } from '../render/sanitize.js';
import { createMcpMetrics } from './mcp-metrics.js';
import { createOtlpExporters, resourceOf, type OtlpSettings } from './otlp-config.js';
import { readableSpanOf } from './readable-span.js';
import { createTelemetryModel, type SpanData, type Telemetry } from './telemetry-model.js';

/** The collector refused or could not be reached: nothing more is sent. */
export class ExportFailure extends Error {}

export interface RecordingExport {
  spans: number;
  sessions: number;
}

const batchSize = 512;

/**
 * Sends a recording to an OTLP collector after the fact: the same spans and metrics the live spy
 * sends (the same model, the same ids), in batches, each waited for; the first failure ends it.
 */
export async function exportRecording(
  entries: AsyncIterable<{ entry: RecordEntry }>,
  settings: OtlpSettings,
  options: { content: boolean; spyVersion: string },
): Promise<RecordingExport> {
  const model = createTelemetryModel({ content: options.content });
  const resource = resourceOf(options.spyVersion);
  const scope = { name: 'mcp-spy', version: options.spyVersion };
  const exporters = createOtlpExporters(settings);
  const metrics = createMcpMetrics(resource, scope, [new PeriodicExportingMetricReader({ exporter: exporters.metrics, exportIntervalMillis: 2 ** 31 - 1 })]);
  let pending: SpanData[] = [];
  // A collector that is not there at all fails the export at once: the exporter would retry in silence for seconds.
  const orUnreachable = <T>(work: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const stop = exporters.connections.onTrouble((trouble) => {
        if (trouble.unreachable) reject(new ExportFailure(`cannot export spans to ${settings.shownUrl}: ${sanitize(trouble.message)}`));
      });
      work.then(resolve, reject).finally(stop);
    });
  const counts: RecordingExport = { spans: 0, sessions: 0 };

  const send = async () => {
    const spans = pending;
    pending = [];
    if (spans.length === 0) return;
    const result = await orUnreachable(new Promise<{ code: ExportResultCode; error?: Error }>((resolve) => exporters.spans.export(spans.map((span) => readableSpanOf(span, resource, scope)), resolve)));
    if (result.code !== ExportResultCode.SUCCESS) throw new ExportFailure(`cannot export spans to ${settings.shownUrl}: ${sanitize(result.error?.message ?? 'export failed')}`);
    counts.spans += spans.length;
  };
  const take = async (items: Telemetry[]) => {
    for (const item of items) {
      if (item.type === 'span') pending.push(item.span);
      else metrics.record(item);
      if (item.type === 'session') counts.sessions++;
    }
    if (pending.length >= batchSize) await send();
  };

  let metricsSent = false;
  try {
    for await (const { entry } of entries) await take(model.add(entry));
    await take(model.finish());
    await send();
    // Shutting down sends the metrics, once (a flush before it sent the same points twice), and fails as a flush would.
    metricsSent = true;
    await orUnreachable(metrics.shutdown());
  } finally {
    // Shutting down waits for the requests still retried: not once the collector was found missing.
    const shutdowns = Promise.all([metricsSent ? undefined : metrics.shutdown().catch(() => {}), exporters.spans.shutdown().catch(() => {})]);
    if (exporters.connections.trouble()?.unreachable !== true) await shutdowns;
  }
  return counts;
}
