import { printableJson, printableLines } from '../render/sanitize.js';
import type { CheckSummary } from './engine.js';
import type { CheckedFile } from './format-junit.js';
import { plural } from '../protocol/plural.js';

/** One line per finding, `file:line: level rule: message`, and the file's verdict; what came from the wire made safe to print. */
export function formatText(summary: CheckSummary, file: string): string {
  const lines = summary.findings.map((f) => {
    const where = f.lineNo !== undefined ? `${file}:${f.lineNo}` : file;
    const seq = f.seq !== undefined ? ` [seq ${f.seq}${f.session ? `, session ${f.session}` : ''}]` : '';
    return `${where}: ${f.level === 'error' ? 'error' : 'warning'} ${f.rule}: ${f.message}${seq}`;
  });
  const total = `${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')} in ${plural(summary.entries, 'entry').replace('entrys', 'entries')}`;
  const skipped = summary.skipped ? `; ${plural(summary.skipped, 'line')} skipped unread, not checked` : '';
  lines.push(summary.findings.length === 0 && !summary.skipped ? `${file}: clean (${total})` : `${file}: ${total}${skipped}`);
  return printableLines(lines);
}

/** Each recording's findings and verdict; with several given, a last line counts those that failed (and those not read). */
export function formatTextFiles(files: CheckedFile[], unread = 0): string {
  const each = files.map(({ summary, file }) => formatText(summary, file)).join('');
  if (files.length + unread < 2) return each;
  const failed = files.filter(({ summary }) => summary.errors > 0).length;
  return `${each}${plural(files.length, 'recording')} checked: ${failed} with errors${unread > 0 ? `; ${unread} could not be read` : ''}\n`;
}

/** `--format json`: the findings and the counts, for tools; an array of those with several recordings. */
export function formatJsonFiles(files: CheckedFile[]): string {
  const shaped = files.map(({ summary, file }) => ({
    file,
    entries: summary.entries,
    skipped: summary.skipped ?? 0,
    errors: summary.errors,
    warnings: summary.warnings,
    findings: summary.findings,
  }));
  return `${printableJson(shaped.length === 1 ? shaped[0] : shaped, 2)}\n`;
}
