import { readFileSync } from 'node:fs';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { describe, expect, it } from 'vitest';
import { withUnitSuffixes } from '../../src/export/metrics-endpoint.js';
import { createMcpMetrics } from '../../src/export/mcp-metrics.js';
import { createTelemetryModel } from '../../src/export/telemetry-model.js';
import type { TestEntry } from '../helpers/spy.js';

const t = (ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString();
const entry = (seq: number, fields: Partial<TestEntry>) => ({ v: 2, seq, t: t(seq * 10), session: 's1', ...fields }) as TestEntry;

/** What GET /metrics serves after a session with every kind of measurement: names and label names by family. */
async function served(withGap: boolean): Promise<Map<string, Set<string>>> {
  const reader = new PrometheusExporter({ preventServerStart: true });
  const metrics = createMcpMetrics(resourceFromAttributes({ 'service.name': 'mcp-spy' }), { name: 'mcp-spy', version: '0' }, [reader]);
  const model = createTelemetryModel({ place: { transport: 'http', server: { address: '127.0.0.1', port: 3000 } } });
  const entries = [
    entry(1, { kind: 'request', dir: 'c2s', method: 'tools/call', id: 1, tool: 'echo', rev: '2025-06-18' }),
    entry(2, { kind: 'tool-error', dir: 's2c', method: 'tools/call', id: 1, related: { seq: 1, id: 1, method: 'tools/call', tool: 'echo' } }),
    entry(3, { kind: 'request', dir: 'c2s', method: 'prompts/get', id: 2, prompt: 'review' }),
    entry(4, { kind: 'protocol-error', dir: 's2c', id: 2, error: { code: -32602, message: 'no' }, related: { seq: 3, id: 2, method: 'prompts/get' } }),
    entry(5, { kind: 'request', dir: 's2c', method: 'roots/list', id: 0 }),
    entry(6, { kind: 'response', dir: 'c2s', id: 0, related: { seq: 5, id: 0, method: 'roots/list' } }),
    ...(withGap ? [entry(7, { kind: 'gap' })] : []),
  ];
  for (const item of [...entries.flatMap((one) => model.add(one)), ...model.finish()]) metrics.record(item);
  const text = new PrometheusSerializer().serialize(withUnitSuffixes((await reader.collect()).resourceMetrics));
  await metrics.shutdown();
  const families = new Map<string, Set<string>>();
  for (const line of text.split('\n')) {
    const sample = /^([a-z_]+)\{(.*)\} /.exec(line);
    if (!sample || sample[1] === 'target_info') continue;
    const family = sample[1]!.replace(/_(bucket|sum|count)$/, '');
    const labels = families.get(family) ?? new Set<string>();
    for (const [, name] of sample[2]!.matchAll(/([a-z_]+)="/g)) if (!/^(le|otel_scope_name|otel_scope_version)$/.test(name!)) labels.add(name!);
    families.set(family, labels);
  }
  return families;
}

/** The table for Grafana in docs/otel.md: each metric's Prometheus name and the labels it lists. */
function grafanaTable(): Map<string, Set<string>> {
  const section = readFileSync(new URL('../../docs/otel.md', import.meta.url), 'utf8')
    .split('## Metrics for Prometheus and Grafana')[1]!
    .split('\n## ')[0]!;
  const table = new Map<string, Set<string>>();
  for (const line of section.split('\n')) {
    const row = /^\| `([a-z_]+)`[^|]*\|[^|]*\|(.*)\|$/.exec(line);
    if (!row) continue;
    const labels = [...row[2]!.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]!);
    table.set(row[1]!, new Set(labels.length === 1 && labels[0] === undefined ? [] : labels));
  }
  return table;
}

describe('the metrics a scraper gets', () => {
  it('are the list for Grafana in docs/otel.md, name for name and label for label', async () => {
    const families = await served(true);
    const table = grafanaTable();
    const sameLabels = grafanaTable().get('mcp_client_operation_duration_seconds')!;
    // "the same" in docs/otel.md: the server's operations list the client's labels but the server's address.
    table.set('mcp_server_operation_duration_seconds', new Set([...sameLabels].filter((label) => !label.startsWith('server_'))));
    expect(new Set(families.keys())).toEqual(new Set(table.keys()));
    for (const [name, labels] of families)
      expect(
        [...labels].filter((label) => !table.get(name)!.has(label)),
        name,
      ).toEqual([]);
  });

  it('count the gaps from 0, so an alert has a series before the first one', async () => {
    expect((await served(false)).has('mcp_spy_gaps_total')).toBe(true);
  });
});
