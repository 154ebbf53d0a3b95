import { capabilityRules } from './capability-rules.js';
import { driftRules } from './drift-rules.js';
import { frameRules } from './frame-rules.js';
import { httpRules } from './http-rules.js';
import { lifecycleRules } from './lifecycle-rules.js';
import { metaRules } from './meta-rules.js';
import { poisonRules } from './poison-rules.js';
import { runRules } from './run-rules.js';
import { shapeRules } from './shape-rules.js';
import { toolRules } from './tool-rules.js';
import type { Level, RuleDefinition, RuleFamily } from './types.js';

/** Every family of rules, in the order their findings are reported for one frame. */
export const ruleFamilies: readonly RuleFamily[] = [
  frameRules,
  lifecycleRules,
  capabilityRules,
  shapeRules,
  toolRules,
  metaRules,
  httpRules,
  driftRules,
  poisonRules,
  runRules,
];

/** The rule table: the one source for `check`, its --rule option, SARIF and JUnit, and docs/rules.md. */
export const rules: readonly RuleDefinition[] = ruleFamilies.flatMap((family) => family.rules);

export const ruleById: ReadonlyMap<string, RuleDefinition> = new Map(rules.map((rule) => [rule.id, rule]));

export const levels = ['off', 'warn', 'error'] as const satisfies readonly Level[];

/** Parses `ID=off|warn|error`; a value says what is wrong. */
export function parseRuleSetting(text: string): { ok: true; id: string; level: Level } | { ok: false; message: string } {
  const match = /^([a-z0-9-]+)=(off|warn|error)$/.exec(text.trim());
  if (!match) return { ok: false, message: `--rule ${text}: expected ID=off, ID=warn or ID=error` };
  if (!ruleById.has(match[1]!)) return { ok: false, message: `--rule ${text}: no rule ${match[1]} (see mcp-spy check --list-rules)` };
  return { ok: true, id: match[1]!, level: match[2] as Level };
}
