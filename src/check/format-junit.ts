import { xmlText as xml } from '../render/xml.js';
import type { CheckSummary } from './engine.js';
import type { Finding, Level, RuleDefinition } from './types.js';

/** One recording's findings, as the formats of `check` take them. */
export interface CheckedFile {
  file: string;
  summary: CheckSummary;
}

const where = (file: string, f: Finding) => `${file}${f.lineNo !== undefined ? `:${f.lineNo}` : ''}${f.seq !== undefined ? ` (seq ${f.seq})` : ''}`;

/** One test suite: a test case per rule that ran over the file. */
function suite({ file, summary }: CheckedFile, active: { rule: RuleDefinition; level: Level }[], command: string): { xml: string[]; failures: number } {
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
  return {
    failures,
    xml: [
      `  <testsuite name="${xml(`mcp-spy ${command} ${file}`)}" tests="${active.length}" failures="${failures}" errors="0" skipped="0" time="0">`,
      ...cases,
      '  </testsuite>',
    ],
  };
}

/**
 * JUnit XML for CI test reporters (of `check`, or of `diff` with its change classes as rules): a test
 * suite per recording, one test case per rule that ran; findings at error level fail it, warnings
 * are listed in its system-out.
 */
export function formatJunitFiles(files: CheckedFile[], active: { rule: RuleDefinition; level: Level }[], command: 'check' | 'diff' = 'check'): string {
  const suites = files.map((file) => suite(file, active, command));
  const failures = suites.reduce((sum, one) => sum + one.failures, 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mcp-spy ${command}" tests="${active.length * files.length}" failures="${failures}" errors="0" time="0">`,
    ...suites.flatMap((one) => one.xml),
    '</testsuites>',
    '',
  ].join('\n');
}

/** JUnit XML of one recording. */
export function formatJunit(
  summary: CheckSummary,
  file: string,
  active: { rule: RuleDefinition; level: Level }[],
  command: 'check' | 'diff' = 'check',
): string {
  return formatJunitFiles([{ file, summary }], active, command);
}
