import type { ReportFinding, ReportLatency, ReportRecording } from '../report-types.js';
import { h, section } from './dom.js';
import { payloadBlock } from './payload.js';

const ms = (value: number | undefined) => (value === undefined ? '–' : String(value));

function latencyTable(title: string, table: Record<string, ReportLatency>): HTMLElement {
  const head = h('tr', {}, ...[title, 'count', 'p50', 'p95', 'p99', 'max', 'protocol errors', 'tool errors'].map((name) => h('th', {}, name)));
  const rows = Object.entries(table).map(([name, stats]) =>
    h(
      'tr',
      { 'data-name': name },
      h('td', {}, name),
      ...[
        stats.count,
        ms(stats.latency?.p50),
        ms(stats.latency?.p95),
        ms(stats.latency?.p99),
        ms(stats.latency?.max),
        stats.protocolErrors,
        stats.toolErrors,
      ].map((value) => h('td', { class: 'number' }, value)),
    ),
  );
  return h('table', { class: 'latency' }, h('thead', {}, head), h('tbody', {}, ...rows));
}

/** Latency per method and per tool, as `stats` prints it (ms, nearest rank). */
export function latencySection(recording: ReportRecording): HTMLElement {
  return section('latency', 'Latency (ms)', latencyTable('method', recording.methods), latencyTable('tool', recording.tools));
}

/** The findings of `check`, each with a link to its frame. */
export function findingsSection(recording: ReportRecording, open: (finding: ReportFinding) => void): HTMLElement {
  const { list } = recording.findings;
  if (list.length === 0) return section('findings', 'Check findings', h('p', {}, 'No findings: the recording follows every rule of mcp-spy check.'));
  const items = list.map((finding) => {
    const link = finding.seq !== undefined ? h('a', { href: '#', class: 'finding-link', 'data-seq': finding.seq }, `seq ${finding.seq}`) : undefined;
    link?.addEventListener('click', (event) => {
      event.preventDefault();
      open(finding);
    });
    return h(
      'li',
      { class: `finding ${finding.level}` },
      h('span', { class: `level ${finding.level}` }, finding.level),
      ' ',
      h('code', {}, finding.rule),
      ' ',
      finding.message,
      ' ',
      link,
    );
  });
  return section('findings', 'Check findings', h('ul', { class: 'findings' }, ...items));
}

/** Each tool the server listed: name, description, input schema, and how often it was called. */
export function toolsSection(recording: ReportRecording): HTMLElement {
  if (recording.inventory.length === 0) return section('tools', 'Tools', h('p', {}, 'No tools/list answer in this recording.'));
  const rows = recording.inventory.map((tool) =>
    h(
      'tr',
      { 'data-tool': tool.name },
      h('td', {}, h('code', {}, tool.name)),
      h('td', {}, tool.description ?? ''),
      h('td', { class: 'number' }, tool.calls),
      h(
        'td',
        {},
        tool.inputSchema === undefined
          ? ''
          : h('details', {}, h('summary', {}, 'input schema'), payloadBlock(JSON.stringify(tool.inputSchema, null, 2), 'pretty')),
      ),
    ),
  );
  const head = h('tr', {}, ...['tool', 'description', 'calls', 'input schema'].map((name) => h('th', {}, name)));
  return section('tools', 'Tools', h('table', { class: 'tools' }, h('thead', {}, head), h('tbody', {}, ...rows)));
}
