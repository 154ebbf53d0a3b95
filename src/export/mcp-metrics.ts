import type { Attributes as OtelAttributes } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import { MeterProvider, type IMetricReader } from '@opentelemetry/sdk-metrics';
import { createLabelBound } from './label-values.js';
import type { InstrumentationScope } from './readable-span.js';
import type { Telemetry } from './telemetry-model.js';

/** The buckets the OpenTelemetry MCP conventions give both duration histograms, in seconds. */
export const durationBuckets = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/**
 * The MCP metrics of the conventions (`mcp.client.operation.duration`, `mcp.server.operation.duration`
 * for what the server asks the client, `mcp.client.session.duration`), and the spy's own counts of
 * frames by kind and direction and of gaps, fed by the model's measurements into the given readers.
 */
export function createMcpMetrics(resource: Resource, scope: InstrumentationScope, readers: IMetricReader[]) {
  const provider = new MeterProvider({ resource, readers });
  const meter = provider.getMeter(scope.name, scope.version);
  const histogram = (name: string, description: string) =>
    meter.createHistogram(name, { unit: 's', description, advice: { explicitBucketBoundaries: durationBuckets } });
  const operation = {
    client: histogram(
      'mcp.client.operation.duration',
      'The duration of the MCP request as observed on the client, from the time it was sent until the response was received.',
    ),
    server: histogram(
      'mcp.server.operation.duration',
      "The duration of a server's MCP request as observed on the client, from the time it was received until the result was sent.",
    ),
  };
  const session = histogram('mcp.client.session.duration', 'The duration of the MCP session as observed on the client.');
  const frames = meter.createCounter('mcp_spy.frames', { unit: '{frame}', description: 'Frames the spy saw, by kind and direction.' });
  const gaps = meter.createCounter('mcp_spy.gaps', { unit: '{gap}', description: 'Times the spy could not record everything.' });
  // A counter is there from the start, at 0: an alert on its increase then has a series to watch.
  gaps.add(0);
  const labels = createLabelBound();

  return {
    record(item: Telemetry) {
      if (item.type === 'operation') operation[item.side].record(item.seconds, labels.apply(item.attributes) as OtelAttributes);
      else if (item.type === 'session') session.record(item.seconds, labels.apply(item.attributes) as OtelAttributes);
      else if (item.type === 'listed') labels.list(item.attribute, item.names);
      else if (item.type === 'frame') frames.add(1, { 'mcp_spy.frame.kind': item.kind, 'mcp_spy.frame.direction': item.dir });
      else if (item.type === 'gap') gaps.add(1);
    },
    forceFlush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

export type McpMetrics = ReturnType<typeof createMcpMetrics>;
