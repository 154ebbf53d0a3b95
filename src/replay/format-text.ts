import { printableLines } from '../render/sanitize.js';
import { describeDiff } from '../recording/compare.js';
import type { ReplayItem, ReplayResult, SessionResult } from './result.js';
import { itemStatuses } from './result.js';

function describeItem(item: ReplayItem): string {
  const name = item.name ? ` ${item.name}` : '';
  const where = item.seq !== undefined ? `#${item.seq} ` : '';
  const id = item.id !== undefined ? ` (id ${JSON.stringify(item.id)})` : '';
  const kind = item.kind === 'response' ? '' : ` [${item.kind}]`;
  return `${where}${item.method}${name}${id}${kind}`;
}

function renderSession(session: SessionResult): string[] {
  const lines = [`session ${session.session} (${[session.transport, session.revision, session.probe ? 'probe' : undefined].filter(Boolean).join(', ')})`];
  for (const item of session.items) {
    const latency = item.latencyMs !== undefined ? ` ${item.latencyMs}ms` : '';
    const reason = item.reason ? `: ${item.reason}` : '';
    lines.push(`  ${item.status.padEnd(8)}${describeItem(item)}${latency}${reason}`);
    for (const entry of item.diff ?? []) lines.push(`      ${describeDiff(entry)}`);
  }
  return lines;
}

/** The text report: one line per compared message, the diff's paths beneath a change, a summary last. Names and values from the wire are made safe to print. */
export function formatText(result: ReplayResult): string {
  const lines = result.sessions.flatMap(renderSession);
  const counts = itemStatuses.map((status) => `${result.counts[status]} ${status}`).join(', ');
  const skipped = result.skipped > 0 ? `, ${result.skipped} frame(s) skipped` : '';
  const updated = result.updated !== undefined ? `; updated ${result.updated} frame(s) in ${result.recording}` : '';
  const verdict = result.ok ? 'passed' : result.updated !== undefined ? 'found differences' : 'FAILED';
  lines.push(`replay ${verdict}: ${counts}${skipped} in ${result.durationMs}ms${updated}`);
  return printableLines(lines);
}
