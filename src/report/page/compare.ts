import type { ReportComparison, ReportPair, ReportTool } from '../report-types.js';
import { h, section } from './dom.js';
import { payloadBlock, prettyText } from './payload.js';
import { plural } from '../../protocol/plural.js';

const json = (value: unknown) => (value === undefined ? '' : JSON.stringify(value, null, 2));

function toolCell(tool: ReportTool | undefined): HTMLElement {
  if (!tool) return h('td', { class: 'absent' }, '(not listed)');
  return h('td', {}, h('p', {}, tool.description ?? ''), h('details', {}, h('summary', {}, 'input schema'), payloadBlock(json(tool.inputSchema), 'pretty')));
}

function answerCell(side: ReportPair['before'], file: string): HTMLElement {
  if (!side) return h('div', { class: 'side absent' }, `(no such request in ${file})`);
  return h(
    'div',
    { class: 'side' },
    h('h4', {}, `${file}, seq ${side.seq}`),
    side.answer === undefined ? h('p', {}, '(no answer)') : payloadBlock(prettyText(side.answer), 'pretty'),
  );
}

function diffTable(pair: ReportPair): HTMLElement | undefined {
  if (pair.diff.length === 0) return undefined;
  const rows = pair.diff.map((entry) =>
    h(
      'tr',
      { class: `diff ${entry.change}` },
      h('td', {}, h('code', {}, entry.path)),
      h('td', {}, entry.change),
      h('td', {}, h('pre', {}, json(entry.before))),
      h('td', {}, h('pre', {}, json(entry.after))),
    ),
  );
  return h(
    'table',
    { class: 'diff' },
    h('thead', {}, h('tr', {}, ...['path', 'change', 'before', 'after'].map((name) => h('th', {}, name)))),
    h('tbody', {}, ...rows),
  );
}

const statusWords = { changed: 'changed', 'only-before': 'only in', 'only-after': 'only in' } as const;

/** A value in a line of the summary: short JSON, cut. */
const brief = (value: unknown) => {
  const text = value === undefined ? '(none)' : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
};

/** What one difference is, in a line: "tool divide: only in before.jsonl", "tools/call add: result.content[0].text "5" → "6"". */
function differenceLine(subject: string, status: ReportPair['status'], files: [string, string], diff: ReportPair['diff'] = []): HTMLElement {
  const where = status === 'only-before' ? ` ${files[0]}` : status === 'only-after' ? ` ${files[1]}` : '';
  const first = diff[0];
  const detail = first
    ? `: ${first.path} ${brief(first.before)} → ${brief(first.after)}${diff.length > 1 ? ` (and ${plural(diff.length - 1, 'more difference')})` : ''}`
    : '';
  return h(
    'li',
    { class: `difference ${status}` },
    h('code', {}, subject),
    ' ',
    h('span', { class: `status ${status}` }, `${status === 'same' ? 'same' : statusWords[status]}${where}`),
    detail,
  );
}

/** Identical items, folded under one line that counts them: they say nothing the summary does not. */
function folded(count: number, noun: string, ...content: HTMLElement[]): HTMLElement | undefined {
  if (count === 0) return undefined;
  return h('details', { class: 'identical', 'data-count': count }, h('summary', {}, `${plural(count, noun)}, identical in both`), ...content);
}

/**
 * Two recordings side by side, what differs first: a summary of every difference (tools listed in
 * one only or described differently, answers that changed or have no counterpart), then the
 * differing tools and answers in full, the identical ones folded.
 */
export function comparisonSection(comparison: ReportComparison, files: [string, string]): HTMLElement {
  const toolRow = (pair: ReportComparison['tools'][number]) =>
    h(
      'tr',
      { class: `pair ${pair.status}`, 'data-tool': pair.name, 'data-status': pair.status },
      h('td', {}, h('code', {}, pair.name)),
      h('td', {}, pair.status),
      toolCell(pair.before),
      toolCell(pair.after),
    );
  const toolTable = (rows: HTMLElement[]) =>
    h(
      'table',
      { class: 'tool-pairs' },
      h('thead', {}, h('tr', {}, ...['tool', 'status', files[0], files[1]].map((name) => h('th', {}, name)))),
      h('tbody', {}, ...rows),
    );
  const answer = (pair: ReportPair) =>
    h(
      'details',
      { class: `pair ${pair.status}`, 'data-status': pair.status, 'data-method': pair.method, open: pair.status === 'changed' },
      h(
        'summary',
        {},
        h('span', { class: `status ${pair.status}` }, pair.status),
        ` ${pair.method}${pair.name ? ` ${pair.name}` : ''}`,
        pair.diff.length > 0 ? ` (${pair.diff.length} difference${pair.diff.length === 1 ? '' : 's'})` : '',
      ),
      diffTable(pair),
      h('div', { class: 'sides' }, answerCell(pair.before, files[0]), answerCell(pair.after, files[1])),
    );
  const differentTools = comparison.tools.filter((pair) => pair.status !== 'same');
  const sameTools = comparison.tools.filter((pair) => pair.status === 'same');
  const differentAnswers = comparison.pairs.filter((pair) => pair.status !== 'same');
  const sameAnswers = comparison.pairs.filter((pair) => pair.status === 'same');
  const differences = [
    ...differentTools.map((pair) => differenceLine(`tool ${pair.name}`, pair.status, files)),
    ...differentAnswers.map((pair) => differenceLine(`${pair.method}${pair.name ? ` ${pair.name}` : ''}`, pair.status, files, pair.diff)),
  ];
  const alike = `${plural(sameTools.length, 'tool')} and ${plural(sameAnswers.length, 'answer')} identical`;
  const summary =
    differences.length === 0
      ? h('p', { class: 'differences none' }, `No differences: ${alike}.`)
      : h('div', { class: 'differences' }, h('p', {}, `${plural(differences.length, 'difference')}; ${alike} (folded below).`), h('ul', {}, ...differences));
  const counts = ['same', 'changed', 'only-before', 'only-after']
    .map((status) => `${comparison.pairs.filter((pair) => pair.status === status).length} ${status}`)
    .join(', ');
  return section(
    'comparison',
    `${files[0]} and ${files[1]}`,
    summary,
    h('h3', {}, 'Tools'),
    differentTools.length > 0 ? toolTable(differentTools.map(toolRow)) : undefined,
    folded(sameTools.length, 'tool', toolTable(sameTools.map(toolRow))),
    h('h3', {}, 'Answers to matching requests'),
    h(
      'p',
      { class: 'compare-counts' },
      `${counts}. Requests are matched by method and params, in order, ignoring ids and ${comparison.ignores.join(', ')}, as mcp-spy replay matches them.`,
    ),
    ...differentAnswers.map(answer),
    folded(sameAnswers.length, 'answer', ...sameAnswers.map(answer)),
  );
}
