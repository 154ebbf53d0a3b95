import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { hostPolicy, refusalOf, type HostPolicy } from '../transports/http/host-guard.js';

const loopback = /^(127\.\d+\.\d+\.\d+|localhost|::1)$/i;

/**
 * Why a scrape is refused, or undefined. On loopback a web page the user opens can reach the
 * endpoint by DNS rebinding, as it could the HTTP spy: the same guard (Host the endpoint's own
 * address, Origin none or loopback). On another address, which the user chose to expose, any Host
 * is taken; an Origin, which no scraper sends, is still refused.
 */
function scrapeRefusal(headers: IncomingHttpHeaders, policy: HostPolicy | undefined): string | undefined {
  // The spy's hint (--allow-host) is the HTTP spy's: the metrics endpoint takes no such option.
  if (policy) return refusalOf(headers, policy)?.split('; allow it with')[0];
  return headers.origin === undefined ? undefined : `Origin ${headers.origin} is a web page's: the metrics are for a scraper`;
}

/** UCUM units and the suffix the OpenTelemetry-to-Prometheus translation gives them. */
const unitSuffixes: Record<string, string> = { s: 'seconds', ms: 'milliseconds', By: 'bytes' };

/**
 * Names as the OpenTelemetry-to-Prometheus translation writes them: the unit as a suffix
 * (`mcp.client.operation.duration` in `s` becomes `mcp_client_operation_duration_seconds`); the
 * serializer then turns dots into underscores and adds `_total` to counters.
 */
export function withUnitSuffixes(metrics: ResourceMetrics): ResourceMetrics {
  return {
    ...metrics,
    scopeMetrics: metrics.scopeMetrics.map((scope) => ({
      ...scope,
      metrics: scope.metrics.map((metric) => {
        const suffix = unitSuffixes[metric.descriptor.unit];
        if (!suffix || metric.descriptor.name.endsWith(`_${suffix}`)) return metric;
        return { ...metric, descriptor: { ...metric.descriptor, name: `${metric.descriptor.name}_${suffix}` } };
      }),
    })),
  };
}

export interface MetricsEndpoint {
  /** The reader to give the meter provider. */
  reader: PrometheusExporter;
  /** Resolves with the URL once listening; rejects with why not. */
  listening: Promise<string>;
  close(): Promise<void>;
}

/** A Prometheus scrape endpoint (`GET /metrics`, text format 0.0.4) on host:port, in this thread. */
export function startMetricsEndpoint(host: string, port: number): MetricsEndpoint {
  const reader = new PrometheusExporter({ preventServerStart: true });
  const serializer = new PrometheusSerializer();
  let policy: HostPolicy | undefined;
  const server: Server = createServer((request, response) => {
    const refusal = scrapeRefusal(request.headers, policy);
    if (refusal !== undefined) {
      response.writeHead(403, { 'content-type': 'text/plain' }).end(`Forbidden: ${refusal}\n`);
      return;
    }
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found: the metrics are at /metrics\n');
      return;
    }
    reader.collect().then(
      ({ resourceMetrics }) =>
        response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }).end(serializer.serialize(withUnitSuffixes(resourceMetrics))),
      (error: Error) => response.writeHead(500, { 'content-type': 'text/plain' }).end(`cannot collect the metrics: ${error.message}\n`),
    );
  });
  server.keepAliveTimeout = 5000;
  const listening = new Promise<string>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address() as { port: number };
      if (loopback.test(host)) policy = hostPolicy({ host, port: address.port });
      resolve(`http://${host.includes(':') ? `[${host}]` : host}:${address.port}/metrics`);
    });
  });
  // The spy exits when the session does, not when a scraper is connected.
  server.unref();
  return {
    reader,
    listening,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
