// A chaos file (--faults FILE): YAML or JSON, a list of rules, or { seed, faults: [...] }. Each rule
// is the one-line grammar, or an object of the same words ({ method, tool, nth, ..., action }).
import { parse } from 'yaml';
import { parseRule } from './parse-rule.js';
import type { FaultRule } from './rule-types.js';

export interface RulesFile {
  rules: FaultRule[];
  seed?: number;
  /** One line per mistake, each naming the entry. */
  problems: string[];
}

const objectWords = ['method', 'tool', 'prompt', 'uri', 'dir', 'nth', 'after', 'every', 'p'] as const;

function quoteIfNeeded(value: string): string {
  return /^[^\s"]+$/.test(value) ? value : JSON.stringify(value);
}

/** An entry written as an object, as the one-line grammar says it; or what is wrong with it. */
function ruleText(entry: unknown): string | { problem: string } {
  if (typeof entry === 'string') return entry;
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return { problem: 'a rule is a line of text or an object with method and action' };
  const fields = entry as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => key !== 'action' && !(objectWords as readonly string[]).includes(key));
  if (unknown.length > 0) return { problem: `unknown field ${unknown.join(', ')} (use ${objectWords.join(', ')}, action)` };
  if (typeof fields.action !== 'string') return { problem: 'action is missing (a string such as "delay 3s")' };
  const words = [typeof fields.method === 'string' ? fields.method : '*'];
  for (const key of objectWords.slice(1)) {
    const value = fields[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' && typeof value !== 'number') return { problem: `${key} must be a string or a number` };
    words.push(`${key}=${quoteIfNeeded(String(value))}`);
  }
  return `${words.join(' ')}: ${fields.action}`;
}

/** The rules of a chaos file's text (`name` says which file in each problem). */
export function readRulesFile(name: string, text: string): RulesFile {
  let data: unknown;
  try {
    data = parse(text);
  } catch (error) {
    // The parser's first line ends on a colon that introduces the excerpt under it: one line ends without it.
    const first = ((error as Error).message ?? '').split('\n')[0]!.replace(/:\s*$/, '');
    return { rules: [], problems: [`${name}: not YAML or JSON: ${first}`] };
  }
  const top = Array.isArray(data) ? { faults: data } : data;
  if (!top || typeof top !== 'object' || !Array.isArray((top as { faults?: unknown }).faults)) {
    return { rules: [], problems: [`${name}: expected a list of rules, or an object with faults: [ ... ] (and seed: N)`] };
  }
  const { faults, seed } = top as { faults: unknown[]; seed?: unknown };
  const problems: string[] = [];
  if (seed !== undefined && !(typeof seed === 'number' && Number.isInteger(seed))) problems.push(`${name}: seed must be a whole number`);
  const rules: FaultRule[] = [];
  faults.forEach((entry, index) => {
    const text = ruleText(entry);
    const rule = typeof text === 'string' ? parseRule(text) : text;
    if ('problem' in rule) problems.push(`${name}: faults[${index}]: ${rule.problem}${typeof text === 'string' ? `: ${text}` : ''}`);
    else rules.push(rule);
  });
  return { rules, problems, ...(typeof seed === 'number' && Number.isInteger(seed) ? { seed } : {}) };
}
