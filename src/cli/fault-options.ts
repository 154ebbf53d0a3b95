// --fault RULE (repeatable), --faults FILE, --seed N: the rules read and checked before anything starts.
import { readFileSync } from 'node:fs';
import { actionSpecs, type FaultTransport } from '../faults/actions.js';
import { parseRule } from '../faults/parse-rule.js';
import type { FaultRule } from '../faults/rule-types.js';
import { readRulesFile } from '../faults/rules-file.js';
import { readFailureWords } from '../record/reader.js';
import { sanitize } from '../render/sanitize.js';
import { SpyError } from './errors.js';

export interface FaultOptions {
  fault?: string[];
  faults?: string;
  seed?: string;
}

export interface FaultPlan {
  rules: FaultRule[];
  seed: number;
}

/**
 * The rules the options name, for a transport; undefined without any (the spy then forwards untouched).
 * Every mistake is one line on stderr; the last is the error that stops the run (exit 2).
 */
export function readFaultOptions(options: FaultOptions, transport: FaultTransport): FaultPlan | undefined {
  const problems: string[] = [];
  const rules: FaultRule[] = [];
  let fileSeed: number | undefined;
  if (options.faults !== undefined) {
    let text: string | undefined;
    try {
      text = readFileSync(options.faults, 'utf8');
    } catch (error) {
      // Worded as every command words a file it cannot read ("no such file"), not by the system's code.
      problems.push(`cannot read --faults ${options.faults}: ${readFailureWords(error) ?? (error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    if (text !== undefined) {
      const file = readRulesFile(options.faults, text);
      problems.push(...file.problems);
      rules.push(...file.rules);
      fileSeed = file.seed;
    }
  }
  for (const text of options.fault ?? []) {
    const rule = parseRule(text);
    if ('problem' in rule) problems.push(`--fault '${text}': ${rule.problem}`);
    else rules.push(rule);
  }
  for (const rule of rules) {
    const spec = actionSpecs[rule.action.name];
    if (!(spec.transports as string[]).includes(transport))
      problems.push(`'${rule.text}': ${rule.action.name} is for ${spec.transports.join(' and ')}, not ${transport}`);
    else {
      const refused = 'refuse' in spec ? spec.refuse(rule.action, transport) : undefined;
      if (refused !== undefined) problems.push(`'${rule.text}': ${refused}`);
    }
    // The HTTP spy reads the client's POSTs only: a rule for the server's frames would never fire there.
    if (transport === 'http' && rule.match.dir === 's2c')
      problems.push(`'${rule.text}': on HTTP rules act on what the client posts; dir=s2c matches nothing there`);
  }
  if (options.seed !== undefined && !/^-?\d+$/.test(options.seed)) problems.push(`--seed ${options.seed}: expected a whole number`);
  if (problems.length > 0) {
    for (const problem of problems.slice(0, -1)) process.stderr.write(`mcp-spy: ${sanitize(problem)}\n`);
    throw new SpyError(problems.at(-1)!);
  }
  if (rules.length === 0) return undefined;
  const seed = options.seed !== undefined ? Number(options.seed) : (fileSeed ?? Math.floor(Math.random() * 2 ** 31));
  return { rules, seed };
}
