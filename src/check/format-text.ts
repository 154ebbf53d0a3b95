import { printableJson, printableLines } from '../render/sanitize.js';
import type { CheckSummary } from './engine.js';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** One line per finding, `file:line: level rule: message`, and a summary line; what came from the wire made safe to print. */
export function formatText(summary: CheckSummary, file: string): string {
  const lines = summary.findings.map((f) => {
    const where = f.lineNo !== undefined ? `${file}:${f.lineNo}` : file;
    const seq = f.seq !== undefined ? ` [seq ${f.seq}${f.session ? `, session ${f.session}` : ''}]` : '';
    return `${where}: ${f.level === 'error' ? 'error' : 'warning'} ${f.rule}: ${f.message}${seq}`;
  });
  const total = `${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')} in ${plural(summary.entries, 'entry').replace('entrys', 'entries')}`;
  const skipped = summary.skipped ? `; ${plural(summary.skipped, 'line')} skipped unread, not checked` : '';
  lines.push(summary.findings.length === 0 && !summary.skipped ? `${file}: clean (${total})` : `${summary.findings.length === 0 ? `${file}: ` : ''}${total}${skipped}`);
  return printableLines(lines);
}

/** `--format json`: the findings and the counts, for tools. */
export function formatJson(summary: CheckSummary, file: string): string {
  return `${printableJson({ file, entries: summary.entries, skipped: summary.skipped ?? 0, errors: summary.errors, warnings: summary.warnings, findings: summary.findings }, 2)}\n`;
}
