import type { CheckSummary } from './engine.js';
import type { Finding, Level, RuleDefinition } from './types.js';

// XML 1.0 cannot hold most control characters at all, even escaped: they become visible escapes.
const xml = (text: string) =>
  text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

const where = (file: string, f: Finding) => `${file}${f.lineNo !== undefined ? `:${f.lineNo}` : ''}${f.seq !== undefined ? ` (seq ${f.seq})` : ''}`;

/**
 * JUnit XML for CI test reporters: one test case per rule that ran; findings at error level fail it,
 * warnings are listed in its system-out.
 */
export function formatJunit(summary: CheckSummary, file: string, active: { rule: RuleDefinition; level: Level }[]): string {
  const cases = active.map(({ rule }) => {
    const mine = summary.findings.filter((f) => f.rule === rule.id);
    const errors = mine.filter((f) => f.level === 'error');
    const warnings = mine.filter((f) => f.level === 'warn');
    const body: string[] = [];
    if (errors.length > 0) {
      const text = errors.map((f) => `${where(file, f)}: ${f.message}`).join('\n');
      body.push(`      <failure message="${xml(`${errors.length} finding(s): ${errors[0]!.message}`)}" type="${rule.id}">${xml(text)}</failure>`);
    }
    if (warnings.length > 0) body.push(`      <system-out>${xml(warnings.map((f) => `warning ${where(file, f)}: ${f.message}`).join('\n'))}</system-out>`);
    const open = `    <testcase name="${xml(`${rule.id}: ${rule.summary}`)}" classname="mcp-spy.check.${rule.id}" time="0"`;
    return body.length === 0 ? `${open}/>` : `${open}>\n${body.join('\n')}\n    </testcase>`;
  });
  const failures = active.filter(({ rule }) => summary.findings.some((f) => f.rule === rule.id && f.level === 'error')).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mcp-spy check" tests="${active.length}" failures="${failures}" errors="0" time="0">`,
    `  <testsuite name="${xml(`mcp-spy check ${file}`)}" tests="${active.length}" failures="${failures}" errors="0" skipped="0" time="0">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
