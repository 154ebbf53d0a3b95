import { ExportResultCode } from '@opentelemetry/core';
import { PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import type { RecordEntry } from '../record/schema.js';
import { sanitize } from '../render/sanitize.js';
import { createMcpMetrics } from './mcp-metrics.js';
import { createOtlpExporters, requestTimeoutMs, resourceOf, type OtlpSettings } from './otlp-config.js';
import { readableSpanOf } from './readable-span.js';
import { createTelemetryModel, type SpanData, type Telemetry } from './telemetry-model.js';

/** The collector refused or could not be reached: nothing more is sent. */
export class ExportFailure extends Error {
  override name = 'ExportFailure';
}

export interface RecordingExport {
  spans: number;
  sessions: number;
}

const batchSize = 512;
/** Past the exporters' own timeout: theirs stops at the reply's first byte, and a reply may trickle for ever. */
const graceMs = 1000;
/** What closing the exporters may take once the export has ended, as the live spy allows its own. */
const closeMs = 500;

/** `work`, or an ExportFailure once `ms` have passed without it. */
async function within<T>(work: Promise<T>, ms: number, failure: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new ExportFailure(failure())), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

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
  const waitMs = requestTimeoutMs() + graceMs;
  const tooSlow = (what: string) => () =>
    `the collector at ${settings.shownUrl} did not take ${what} within ${waitMs / 1000} s; the export stopped after ${counts.spans} span(s)`;

  const send = async () => {
    const spans = pending;
    pending = [];
    if (spans.length === 0) return;
    const exported = new Promise<{ code: ExportResultCode; error?: Error }>((resolve) =>
      exporters.spans.export(
        spans.map((span) => readableSpanOf(span, resource, scope)),
        resolve,
      ),
    );
    const result = await within(orUnreachable(exported), waitMs, tooSlow(`${spans.length} span(s)`));
    if (result.code !== ExportResultCode.SUCCESS)
      throw new ExportFailure(`cannot export spans to ${settings.shownUrl}: ${sanitize(result.error?.message ?? 'export failed')}`);
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
    await within(orUnreachable(metrics.shutdown()), waitMs, tooSlow('the metrics'));
  } finally {
    // Bounded: a shutdown waits for the requests in flight, which a collector may never finish, and
    // for the retries still going: not at all once the collector was found missing.
    const closing = [metricsSent ? undefined : metrics.shutdown(), exporters.spans.shutdown()].map((work) => work?.catch(() => {}));
    if (exporters.connections.trouble()?.unreachable !== true)
      await Promise.race([Promise.all(closing), new Promise((resolve) => setTimeout(resolve, closeMs).unref())]);
  }
  return counts;
}
