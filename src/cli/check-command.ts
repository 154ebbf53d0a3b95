import { activeAssertionRules, createAssertionChecker, type Assertions } from '../check/assertions.js';
import { createChecker, type CheckSummary } from '../check/engine.js';
import { formatJunitFiles, type CheckedFile } from '../check/format-junit.js';
import { formatSarifFiles } from '../check/format-sarif.js';
import { formatJsonFiles, formatTextFiles } from '../check/format-text.js';
import { parseRuleSetting, rules } from '../check/rules.js';
import type { Level, RuleDefinition } from '../check/types.js';
import type { CheckFormat } from './check-options.js';
import { readBaseline } from '../drift/baseline.js';
import { exitCodes, SpyError } from './errors.js';
import { forEachFile } from './each-file.js';
import { recordingEntries } from './recording-input.js';
import { version } from './version.js';

export interface CheckCommandOptions {
  format: CheckFormat;
  rule?: string[];
  strict?: boolean;
  maxLine?: number;
  listRules?: boolean;
  baseline?: string;
  expectTool?: string[];
  forbidTool?: string[];
  maxDuration?: { pattern: string; ms: number }[];
}

type Active = { rule: RuleDefinition; level: Level }[];

const formatters: Record<CheckFormat, (files: CheckedFile[], active: Active, unread: number) => string> = {
  text: (files, _active, unread) => formatTextFiles(files, unread),
  json: formatJsonFiles,
  junit: (files, active) => formatJunitFiles(files, active),
  sarif: (files, active) => formatSarifFiles(files, active, version),
};

function listRules(active: Active): string {
  const width = Math.max(...active.map(({ rule }) => rule.id.length));
  return `${active.map(({ rule, level }) => `${rule.id.padEnd(width)}  ${level.padEnd(5)}  ${rule.summary}`).join('\n')}\n`;
}

/** A summary with the findings of the assertions added, in line order, counted. */
function withFindings(summary: CheckSummary, more: CheckSummary['findings']): CheckSummary {
  if (more.length === 0) return summary;
  const findings = [...summary.findings, ...more].sort((a, b) => (a.lineNo ?? Infinity) - (b.lineNo ?? Infinity));
  const errors = findings.filter((finding) => finding.level === 'error').length;
  return { entries: summary.entries, errors, warnings: findings.length - errors, findings };
}

/**
 * `mcp-spy check FILE...`: protocol lint, a verdict per recording. Exit 0 clean (or warnings only),
 * 1 findings at error level in any (or nothing readable), 2 bad use (a file that cannot be read).
 */
export async function runCheck(files: string[], options: CheckCommandOptions): Promise<number> {
  const overrides = new Map<string, Level>();
  for (const setting of options.rule ?? []) {
    const parsed = parseRuleSetting(setting);
    if (!parsed.ok) throw new SpyError(parsed.message);
    overrides.set(parsed.id, parsed.level);
  }
  const active: Active = rules.map((rule) => ({ rule, level: overrides.get(rule.id) ?? rule.severity }));
  if (options.listRules) {
    process.stdout.write(listRules(active));
    return exitCodes.ok;
  }
  if (files.length === 0) throw new SpyError('check needs a recording: mcp-spy check wire.jsonl');
  const baseline = options.baseline === undefined ? {} : { baseline: readBaseline(options.baseline) };
  const assertions: Assertions = { expectTools: options.expectTool ?? [], forbidTools: options.forbidTool ?? [], maxDurations: options.maxDuration ?? [] };
  const { done, exitCode } = await forEachFile(files, async (file) => {
    const checker = createChecker(overrides, baseline);
    const asserted = createAssertionChecker(assertions);
    const tally = { skipped: 0 };
    for await (const { entry, lineNo } of recordingEntries(file, { strict: options.strict, maxLine: options.maxLine }, tally)) {
      checker.add(entry, lineNo);
      asserted.add(entry, lineNo);
    }
    return { ...withFindings(checker.finish(), asserted.finish()), skipped: tally.skipped };
  });
  const checked = done.map(({ file, value }) => ({ file, summary: value }));
  // The assertions given are rules too: a JUnit test case and a SARIF rule each.
  const running = [...active.filter(({ level }) => level !== 'off'), ...activeAssertionRules(assertions).map((rule) => ({ rule, level: rule.severity }))];
  if (checked.length > 0) process.stdout.write(formatters[options.format](checked, running, files.length - checked.length));
  // Lines skipped unread were not checked: a recording of which nothing could be read passes nothing.
  const nothingRead = (summary: CheckSummary) => summary.entries === 0 && (summary.skipped ?? 0) > 0;
  const failed = checked.some(({ summary }) => summary.errors > 0 || nothingRead(summary)) ? exitCodes.findings : exitCodes.ok;
  return Math.max(exitCode, failed);
}
