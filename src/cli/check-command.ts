import { createChecker } from '../check/engine.js';
import { formatJunit } from '../check/format-junit.js';
import { formatSarif } from '../check/format-sarif.js';
import { formatJson, formatText } from '../check/format-text.js';
import { parseRuleSetting, rules } from '../check/rules.js';
import type { Level, RuleDefinition } from '../check/types.js';
import type { CheckFormat } from './check-options.js';
import { loadBaseline } from './baseline-option.js';
import { exitCodes, SpyError } from './errors.js';
import { recordingEntries } from './recording-input.js';
import { version } from './version.js';


export interface CheckCommandOptions {
  format: CheckFormat;
  rule?: string[];
  strict?: boolean;
  maxLine?: number;
  listRules?: boolean;
  baseline?: string;
}

type Active = { rule: RuleDefinition; level: Level }[];

const formatters: Record<CheckFormat, (summary: ReturnType<ReturnType<typeof createChecker>['finish']>, file: string, active: Active) => string> = {
  text: formatText,
  json: formatJson,
  junit: formatJunit,
  sarif: (summary, file, active) => formatSarif(summary, file, active, version),
};

function listRules(active: Active): string {
  const width = Math.max(...active.map(({ rule }) => rule.id.length));
  return `${active.map(({ rule, level }) => `${rule.id.padEnd(width)}  ${level.padEnd(5)}  ${rule.summary}`).join('\n')}\n`;
}

/** `mcp-spy check FILE`: protocol lint. Exit 0 clean (or warnings only), 1 findings at error level or nothing readable, 2 bad use. */
export async function runCheck(file: string | undefined, options: CheckCommandOptions): Promise<number> {
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
  if (!file) throw new SpyError('check needs a recording: mcp-spy check wire.jsonl');
  const checker = createChecker(overrides, options.baseline === undefined ? {} : { baseline: loadBaseline(options.baseline) });
  const tally = { skipped: 0 };
  for await (const { entry, lineNo } of recordingEntries(file, { strict: options.strict, maxLine: options.maxLine }, tally)) checker.add(entry, lineNo);
  const summary = { ...checker.finish(), skipped: tally.skipped };
  process.stdout.write(formatters[options.format](summary, file, active.filter(({ level }) => level !== 'off')));
  // Lines skipped unread were not checked: a recording of which nothing could be read passes nothing.
  const nothingRead = summary.entries === 0 && summary.skipped > 0;
  return summary.errors > 0 || nothingRead ? exitCodes.findings : exitCodes.ok;
}
