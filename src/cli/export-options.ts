import type { Command } from 'commander';
import type { ExportConfig } from '../export/export-sink.js';
import type { SessionPlace } from '../export/mcp-attributes.js';
import { otlpSettingsOf, resourceAttributesProblem } from '../export/otlp-settings.js';
import { parseListen } from '../transports/http/target.js';
import { SpyError } from './errors.js';
import { version } from './version.js';

/** The parsed options, as commander names them. */
export interface ExportOptions {
  otlp?: string;
  otlpContent?: boolean;
  metrics?: string;
}

/** Adds --otlp, --otlp-content and --metrics to a spying command. */
export function withExportOptions(command: Command): Command {
  return command
    .option(
      '--otlp <url>',
      'send spans and metrics to an OpenTelemetry collector over OTLP/HTTP, e.g. http://127.0.0.1:4318 (OTEL_EXPORTER_OTLP_ENDPOINT does too)',
    )
    .option('--otlp-content', 'put tool arguments and results on the spans (after --redact)')
    .option('--metrics <[host:]port>', 'serve Prometheus metrics at http://HOST:PORT/metrics (host 127.0.0.1 unless given)');
}

/** What the observer thread exports, or undefined when nothing asks for it; bad use is one clear line. */
export function exportConfigOf(options: ExportOptions, place: SessionPlace, env: NodeJS.ProcessEnv = process.env): ExportConfig | undefined {
  const otlp = otlpSettingsOf(options.otlp, env);
  if (!otlp.ok) throw new SpyError(otlp.reason);
  let metrics: ExportConfig['metrics'];
  if (options.metrics !== undefined) {
    const listen = parseListen(options.metrics);
    if (!listen.ok) throw new SpyError(`bad --metrics ${JSON.stringify(options.metrics)}: ${listen.reason}`);
    metrics = listen.address;
  }
  if (!otlp.settings && !metrics) return undefined;
  const resource = resourceAttributesProblem(env);
  if (resource) throw new SpyError(resource);
  const config: ExportConfig = { spyVersion: version, place, otlpContent: options.otlpContent === true };
  if (otlp.settings) config.otlp = otlp.settings;
  if (metrics) config.metrics = metrics;
  return config;
}
