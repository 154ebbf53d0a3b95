import { xmlText as xml } from '../render/xml.js';
import type { CheckSummary } from './engine.js';
import type { Finding, Level, RuleDefinition } from './types.js';

const where = (file: string, f: Finding) => `${file}${f.lineNo !== undefined ? `:${f.lineNo}` : ''}${f.seq !== undefined ? ` (seq ${f.seq})` : ''}`;

/**
 * JUnit XML for CI test reporters (of `check`, or of `diff` with its change classes as rules): one test case per rule that ran; findings at error level fail it,
 * warnings are listed in its system-out.
 */
export function formatJunit(summary: CheckSummary, file: string, active: { rule: RuleDefinition; level: Level }[], command: 'check' | 'diff' = 'check'): string {
  const cases = active.map(({ rule }) => {
    const mine = summary.findings.filter((f) => f.rule === rule.id);
    const errors = mine.filter((f) => f.level === 'error');
    const warnings = mine.filter((f) => f.level === 'warn');
    const body: string[] = [];
    if (errors.length > 0) {
      const text = errors.map((f) => xml(`${where(file, f)}: ${f.message}`)).join('\n');
      body.push(`      <failure message="${xml(`${errors.length} finding(s): ${errors[0]!.message}`)}" type="${rule.id}">${text}</failure>`);
    }
    if (warnings.length > 0) body.push(`      <system-out>${warnings.map((f) => xml(`warning ${where(file, f)}: ${f.message}`)).join('\n')}</system-out>`);
    const open = `    <testcase name="${xml(`${rule.id}: ${rule.summary}`)}" classname="mcp-spy.${command}.${rule.id}" time="0"`;
    return body.length === 0 ? `${open}/>` : `${open}>\n${body.join('\n')}\n    </testcase>`;
  });
  const failures = active.filter(({ rule }) => summary.findings.some((f) => f.rule === rule.id && f.level === 'error')).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mcp-spy ${command}" tests="${active.length}" failures="${failures}" errors="0" time="0">`,
    `  <testsuite name="${xml(`mcp-spy ${command} ${file}`)}" tests="${active.length}" failures="${failures}" errors="0" skipped="0" time="0">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
