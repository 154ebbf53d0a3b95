import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtobufMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { detectResources, envDetector, resourceFromAttributes, type Resource } from '@opentelemetry/resources';

/** The OTLP/HTTP encodings OTEL_EXPORTER_OTLP_PROTOCOL names that the spy speaks. */
export const otlpProtocols = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof otlpProtocols)[number];

/** Where spans and metrics go, as the flag and the standard OTEL_EXPORTER_OTLP_* variables say. */
export interface OtlpSettings {
  protocol: OtlpProtocol;
  /** Given to the exporters: undefined leaves them to read OTEL_EXPORTER_OTLP_*_ENDPOINT themselves. */
  tracesUrl?: string;
  metricsUrl?: string;
  /** Where the spans go, for messages. */
  shownUrl: string;
}

type Env = Record<string, string | undefined>;

const set = (value: string | undefined) => (value !== undefined && value.trim() !== '' ? value.trim() : undefined);

/** An OTLP/HTTP base URL (the collector's, e.g. http://127.0.0.1:4318), or why not. */
export function checkOtlpUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `OTLP/HTTP needs an http or https URL, not ${url.protocol}`;
  return undefined;
}

const signalUrl = (base: string, signal: 'traces' | 'metrics') => `${base.replace(/\/+$/, '')}/v1/${signal}`;

/**
 * The OTLP settings, or undefined when nothing asks for export: `--otlp URL` (a base URL, to which
 * /v1/traces and /v1/metrics are added, as OTEL_EXPORTER_OTLP_ENDPOINT), or the variables alone.
 * OTEL_SDK_DISABLED=true turns the variables off; a flag still wins.
 */
export function otlpSettingsOf(flag: string | undefined, env: Env): { ok: true; settings?: OtlpSettings } | { ok: false; reason: string } {
  const endpoint = set(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const tracesEndpoint = set(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  const disabled = set(env.OTEL_SDK_DISABLED)?.toLowerCase() === 'true';
  if (flag === undefined && (disabled || (endpoint === undefined && tracesEndpoint === undefined))) return { ok: true };
  const protocol = set(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) ?? set(env.OTEL_EXPORTER_OTLP_PROTOCOL) ?? 'http/protobuf';
  if (!(otlpProtocols as readonly string[]).includes(protocol)) {
    return { ok: false, reason: `OTEL_EXPORTER_OTLP_PROTOCOL ${JSON.stringify(protocol)} is not spoken here; use http/protobuf or http/json` };
  }
  const chosen = protocol as OtlpProtocol;
  if (flag !== undefined) {
    const problem = checkOtlpUrl(flag);
    if (problem) return { ok: false, reason: `bad --otlp ${JSON.stringify(flag)}: ${problem}; expected a collector URL such as http://127.0.0.1:4318` };
    return { ok: true, settings: { protocol: chosen, tracesUrl: signalUrl(flag, 'traces'), metricsUrl: signalUrl(flag, 'metrics'), shownUrl: signalUrl(flag, 'traces') } };
  }
  const shown = tracesEndpoint ?? signalUrl(endpoint!, 'traces');
  const problem = checkOtlpUrl(shown);
  if (problem) return { ok: false, reason: `bad OTEL_EXPORTER_OTLP_ENDPOINT ${JSON.stringify(shown)}: ${problem}` };
  return { ok: true, settings: { protocol: chosen, shownUrl: shown } };
}

/** The resource of every span and metric: service mcp-spy, then OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES. */
export function resourceOf(spyVersion: string): Resource {
  return resourceFromAttributes({ 'service.name': 'mcp-spy', 'service.version': spyVersion }).merge(detectResources({ detectors: [envDetector] }));
}

/** The official exporters for the chosen encoding. */
export function createOtlpExporters(settings: OtlpSettings) {
  const json = settings.protocol === 'http/json';
  // Failures come back to us through the result callbacks; a retry must not outlive a slow collector by much.
  const timeoutSet = set(process.env.OTEL_EXPORTER_OTLP_TIMEOUT) !== undefined || set(process.env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT) !== undefined;
  const common = { concurrencyLimit: 2, ...(timeoutSet ? {} : { timeoutMillis: 5000 }) };
  return {
    spans: new (json ? JsonTraceExporter : ProtobufTraceExporter)({ ...common, ...(settings.tracesUrl ? { url: settings.tracesUrl } : {}) }),
    metrics: new (json ? JsonMetricExporter : ProtobufMetricExporter)({ ...common, ...(settings.metricsUrl ? { url: settings.metricsUrl } : {}) }),
  };
}
