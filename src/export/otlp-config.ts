import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtobufMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { detectResources, envDetector, resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { setting, type OtlpSettings } from './otlp-settings.js';
import { createWatchedAgents } from './watched-agent.js';

export type { OtlpSettings } from './otlp-settings.js';

/** The resource of every span and metric: service mcp-spy, then OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES. */
export function resourceOf(spyVersion: string): Resource {
  return resourceFromAttributes({ 'service.name': 'mcp-spy', 'service.version': spyVersion }).merge(detectResources({ detectors: [envDetector] }));
}

/** How long the exporters give one request (OTEL_EXPORTER_OTLP_TIMEOUT, ms), 5 s unless set. */
export function requestTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(setting(env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT) ?? setting(env.OTEL_EXPORTER_OTLP_TIMEOUT));
  return Number.isFinite(value) && value > 0 ? value : 5000;
}

/** The official exporters for the chosen encoding, and what their connections met (`connections`). */
export function createOtlpExporters(settings: OtlpSettings) {
  const json = settings.protocol === 'http/json';
  // Failures come back to us through the result callbacks; a retry must not outlive a slow collector by much.
  const timeoutSet = setting(process.env.OTEL_EXPORTER_OTLP_TIMEOUT) !== undefined || setting(process.env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT) !== undefined;
  const connections = createWatchedAgents();
  const common = { concurrencyLimit: 2, httpAgentOptions: connections.factory, ...(timeoutSet ? {} : { timeoutMillis: 5000 }) };
  return {
    spans: new (json ? JsonTraceExporter : ProtobufTraceExporter)({ ...common, ...(settings.tracesUrl ? { url: settings.tracesUrl } : {}) }),
    metrics: new (json ? JsonMetricExporter : ProtobufMetricExporter)({ ...common, ...(settings.metricsUrl ? { url: settings.metricsUrl } : {}) }),
    connections,
  };
}
