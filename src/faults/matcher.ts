// Which rule, if any, faults a frame: the first rule whose match agrees and whose when-words fire.
import type { FaultRule } from './rule-types.js';

/** What the matcher reads of a frame: its direction and its annotations. */
export interface FrameFacts {
  dir: 'c2s' | 's2c';
  method?: string;
  tool?: string;
  prompt?: string;
  uri?: string;
  /** Present on requests: an answer is owed. */
  id?: string | number | null;
  isRequest: boolean;
}

/** `*` stands for any run of characters; everything else is itself. */
function globMatches(pattern: string, value: string | undefined): boolean {
  if (value === undefined) return false;
  if (!pattern.includes('*')) return pattern === value;
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 's').test(value);
}

function matches(rule: FaultRule, frame: FrameFacts): boolean {
  const { match } = rule;
  if (frame.method === undefined) return false;
  if (match.dir !== undefined && match.dir !== frame.dir) return false;
  if (!globMatches(match.method, frame.method)) return false;
  return (['tool', 'prompt', 'uri'] as const).every((key) => match[key] === undefined || globMatches(match[key], frame[key]));
}

export interface FaultMatcher {
  /** The rule that faults this frame, and its index; counts move on every frame a rule's match agrees with. */
  decide(frame: FrameFacts): { rule: FaultRule; index: number } | undefined;
  /**
   * Whether a line's bytes may hold a method some rule names (false: no rule can match it, it need not
   * be parsed). A line with a backslash may spell a method with escapes (`tools\/call`): it may.
   */
  mayMatch(line: Buffer): boolean;
}

const backslash = 0x5c;

/** A matcher over the rules in order; `random` is drawn only when a rule with p= is otherwise due. */
export function createFaultMatcher(rules: FaultRule[], random: () => number): FaultMatcher {
  const counts = rules.map(() => 0);
  const methods = rules.some((rule) => rule.match.method.includes('*'))
    ? undefined
    : [...new Set(rules.map((rule) => rule.match.method))].map((method) => Buffer.from(method));
  return {
    mayMatch: (line) => methods === undefined || line.includes(backslash) || methods.some((method) => line.includes(method)),
    decide(frame) {
      let chosen: { rule: FaultRule; index: number } | undefined;
      // Every rule whose match agrees counts the frame, so nth=2 is the second such frame whatever other rules did.
      rules.forEach((rule, index) => {
        if (!matches(rule, frame)) return;
        const n = (counts[index] = counts[index]! + 1);
        if (chosen) return;
        const { nth, after, every, p } = rule.when;
        if (nth !== undefined && n !== nth) return;
        if (after !== undefined && n <= after) return;
        if (every !== undefined && n % every !== 0) return;
        if (p !== undefined && random() >= p) return;
        chosen = { rule, index };
      });
      return chosen;
    },
  };
}
