import { printableJson, sanitize } from '../render/sanitize.js';
import type { CallStats, RecordingStats } from './stats.js';
import { formatTable } from './table.js';
import { plural } from '../protocol/plural.js';

export const statsFormats = ['text', 'json', 'markdown'] as const;
export type StatsFormat = (typeof statsFormats)[number];

const ms = (value: number | undefined) => (value === undefined ? '-' : `${value}`);

function callTable(title: string, table: Record<string, CallStats>, markdown: boolean): string {
  const rows = Object.entries(table).map(([name, s]) => [
    sanitize(name),
    String(s.count),
    String(s.protocolErrors),
    String(s.toolErrors),
    ms(s.latency?.p50),
    ms(s.latency?.p95),
    ms(s.latency?.p99),
    ms(s.latency?.max),
  ]);
  if (rows.length === 0) return '';
  const heading = markdown ? `### ${title}` : `${title}:`;
  return `${heading}\n\n${formatTable([title === 'Methods' ? 'method' : 'tool', 'count', 'protocol errors', 'tool errors', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'], rows, markdown)}\n`;
}

const capabilityList = (capabilities: object | undefined) => (capabilities ? sanitize(Object.keys(capabilities).join(', ')) || '(none)' : '?');
const peer = (info: { name?: string; version?: string } | undefined) => (info ? sanitize(`${info.name ?? '?'} ${info.version ?? ''}`.trim()) : '?');

function sessionTable(stats: RecordingStats, markdown: boolean): string {
  const rows = stats.sessions.map((s) => [
    sanitize(s.session || '-'),
    sanitize(s.revision ?? '?'),
    peer(s.client),
    peer(s.server),
    capabilityList(s.clientCapabilities),
    capabilityList(s.serverCapabilities),
  ]);
  const heading = markdown ? '### Sessions' : 'Sessions:';
  return `${heading}\n\n${formatTable(['session', 'revision', 'client', 'server', 'client capabilities', 'server capabilities'], rows, markdown)}\n`;
}

function problems(stats: RecordingStats, markdown: boolean): string {
  const lines: string[] = [];
  const bullet = markdown ? '- ' : '  ';
  lines.push(`${markdown ? '### ' : ''}Unanswered requests: ${stats.unanswered.length === 0 ? 'none' : stats.unanswered.length}`);
  for (const r of stats.unanswered) {
    lines.push(
      `${bullet}#${sanitize(JSON.stringify(r.id))} ${sanitize(r.method ?? '?')}${r.tool ? ` tool=${sanitize(r.tool)}` : ''} (${r.dir}, seq ${r.seq}, session ${sanitize(r.session ?? '-')})`,
    );
  }
  const notes = Object.entries(stats.invalid.notes)
    .map(([note, count]) => `${sanitize(note)} ${count}`)
    .join(', ');
  lines.push(`${markdown ? '\n### ' : ''}Invalid frames: ${stats.invalid.count === 0 ? 'none' : `${stats.invalid.count} (${notes})`}`);
  if (stats.faults.count > 0) {
    lines.push(`${markdown ? '\n### ' : ''}Injected faults (the spy's, on purpose; their frames are left out above): ${stats.faults.count}`);
    for (const [rule, count] of Object.entries(stats.faults.rules)) lines.push(`${bullet}${count} × ${sanitize(rule)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Per tool, what it costs a model's context: its definition (in every conversation that lists it) and its results. */
function sizeTable(stats: RecordingStats, markdown: boolean): string {
  const entries = Object.entries(stats.toolSizes);
  if (entries.length === 0) return '';
  const bytes = (value: number | undefined) => (value === undefined ? '-' : String(value));
  const rows = entries.map(([name, size]) => [
    sanitize(name),
    bytes(size.definitionBytes),
    String(size.results),
    bytes(size.results > 0 ? size.resultBytes : undefined),
    bytes(size.results > 0 ? Math.round(size.resultBytes / size.results) : undefined),
    bytes(size.results > 0 ? size.maxResultBytes : undefined),
  ]);
  const definitions = entries.reduce((sum, [, size]) => sum + (size.definitionBytes ?? 0), 0);
  const heading = markdown ? '### Tool sizes (bytes of JSON)' : 'Tool sizes (bytes of JSON):';
  const total = `All definitions: ${definitions} bytes, in every conversation that lists the tools.`;
  return `${heading}\n\n${formatTable(['tool', 'definition', 'results', 'result bytes', 'mean', 'max'], rows, markdown)}\n${markdown ? '\n' : ''}${total}\n`;
}

function multiRound(stats: RecordingStats, markdown: boolean): string {
  if (stats.multiRoundCalls.length === 0) return '';
  const bullet = markdown ? '- ' : '  ';
  const lines = stats.multiRoundCalls.map((call) => {
    const what = `#${sanitize(JSON.stringify(call.id))} ${sanitize(call.method)}${call.tool ? ` tool=${sanitize(call.tool)}` : ''}`;
    const end = call.unfinished ? ', never completed' : '';
    return `${bullet}${what}: ${plural(call.rounds, 'round')}, ${call.totalMs} ms in all (rounds: ${call.roundMs.join(', ')} ms${end}; session ${sanitize(call.session ?? '-')})`;
  });
  return `${markdown ? '### Multi-round calls' : 'Multi-round calls:'}\n${markdown ? '\n' : ''}${lines.join('\n')}\n`;
}

/**
 * Renders stats as text for a terminal, JSON for tools, or markdown to paste in a pull request.
 * `file` names the recording, for stats of several.
 */
export function formatStats(stats: RecordingStats, format: StatsFormat, file?: string): string {
  if (format === 'json') return `${printableJson(file === undefined ? stats : { file, ...stats }, 2)}\n`;
  const markdown = format === 'markdown';
  const kinds = Object.entries(stats.kinds)
    .map(([kind, count]) => `${sanitize(kind)} ${count}`)
    .join(', ');
  const summary = `${plural(stats.entries, 'entry').replace('entrys', 'entries')}, ${plural(stats.frames, 'frame')}, ${plural(stats.sessions.length, 'session')}${kinds ? ` (${kinds})` : ''}`;
  const named = file === undefined ? '' : sanitize(file);
  const title = markdown ? `## MCP recording stats${named ? `: ${named}` : ''}\n\n${summary}\n` : `${named ? `${named}: ` : ''}${summary}\n`;
  return [
    title,
    sessionTable(stats, markdown),
    callTable('Methods', stats.methods, markdown),
    callTable('Tools', stats.tools, markdown),
    sizeTable(stats, markdown),
    multiRound(stats, markdown),
    problems(stats, markdown),
  ]
    .filter((part) => part !== '')
    .join('\n');
}

/** Stats of several recordings: each under its name, one after the other (a JSON array). */
export function formatStatsFiles(files: { file: string; stats: RecordingStats }[], format: StatsFormat): string {
  if (files.length === 1) return formatStats(files[0]!.stats, format);
  if (format === 'json')
    return `${printableJson(
      files.map(({ file, stats }) => ({ file, ...stats })),
      2,
    )}\n`;
  return files.map(({ file, stats }) => formatStats(stats, format, file)).join('\n');
}
