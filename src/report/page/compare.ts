import type { ReportComparison, ReportPair, ReportTool } from '../report-types.js';
import { h, section } from './dom.js';
import { payloadBlock, prettyText } from './payload.js';

const json = (value: unknown) => (value === undefined ? '' : JSON.stringify(value, null, 2));

function toolCell(tool: ReportTool | undefined): HTMLElement {
  if (!tool) return h('td', { class: 'absent' }, '(not listed)');
  return h('td', {}, h('p', {}, tool.description ?? ''), h('details', {}, h('summary', {}, 'input schema'), payloadBlock(json(tool.inputSchema), 'pretty')));
}

function answerCell(side: ReportPair['before'], file: string): HTMLElement {
  if (!side) return h('div', { class: 'side absent' }, `(no such request in ${file})`);
  return h('div', { class: 'side' }, h('h4', {}, `${file}, seq ${side.seq}`), side.answer === undefined ? h('p', {}, '(no answer)') : payloadBlock(prettyText(side.answer), 'pretty'));
}

function diffTable(pair: ReportPair): HTMLElement | undefined {
  if (pair.diff.length === 0) return undefined;
  const rows = pair.diff.map((entry) => h('tr', { class: `diff ${entry.change}` }, h('td', {}, h('code', {}, entry.path)), h('td', {}, entry.change), h('td', {}, h('pre', {}, json(entry.before))), h('td', {}, h('pre', {}, json(entry.after)))));
  return h('table', { class: 'diff' }, h('thead', {}, h('tr', {}, ...['path', 'change', 'before', 'after'].map((name) => h('th', {}, name)))), h('tbody', {}, ...rows));
}

/** Two recordings side by side: their tools, and the answers to requests matched as `replay` matches them. */
export function comparisonSection(comparison: ReportComparison, files: [string, string]): HTMLElement {
  const toolRows = comparison.tools.map((pair) => h('tr', { class: `pair ${pair.status}`, 'data-tool': pair.name, 'data-status': pair.status }, h('td', {}, h('code', {}, pair.name)), h('td', {}, pair.status), toolCell(pair.before), toolCell(pair.after)));
  const pairs = comparison.pairs.map((pair) =>
    h(
      'details',
      { class: `pair ${pair.status}`, 'data-status': pair.status, 'data-method': pair.method, open: pair.status === 'changed' },
      h('summary', {}, h('span', { class: `status ${pair.status}` }, pair.status), ` ${pair.method}${pair.name ? ` ${pair.name}` : ''}`, pair.diff.length > 0 ? ` (${pair.diff.length} difference${pair.diff.length === 1 ? '' : 's'})` : ''),
      diffTable(pair),
      h('div', { class: 'sides' }, answerCell(pair.before, files[0]), answerCell(pair.after, files[1])),
    ),
  );
  const counts = ['same', 'changed', 'only-before', 'only-after'].map((status) => `${comparison.pairs.filter((pair) => pair.status === status).length} ${status}`).join(', ');
  return section(
    'comparison',
    `${files[0]} and ${files[1]}`,
    h('h3', {}, 'Tools'),
    h('table', { class: 'tool-pairs' }, h('thead', {}, h('tr', {}, ...['tool', 'status', files[0], files[1]].map((name) => h('th', {}, name)))), h('tbody', {}, ...toolRows)),
    h('h3', {}, 'Answers to matching requests'),
    h('p', { class: 'compare-counts' }, `${counts}. Requests are matched by method and params, in order, ignoring ids and ${comparison.ignores.join(', ')}, as mcp-spy replay matches them.`),
    ...pairs,
  );
}
