// The rule grammar: `METHOD [tool=NAME] [prompt=..] [uri=..] [dir=c2s|s2c] [nth=N] [after=N] [every=N] [p=0.2]: ACTION ARGS`.
import { lookup } from '../protocol/own-table.js';
import { actionSpecs } from './actions.js';
import type { FaultMatch, FaultRule, FaultWhen, RuleProblem } from './rule-types.js';
import { tokenize, type Token } from './tokens.js';

const matchKeys = ['tool', 'prompt', 'uri', 'dir'] as const;

/** The when-words: each reads its value or says what it wants. They may stand before the colon or after the action. */
const whenKeys: Record<keyof FaultWhen, (text: string) => number | string> = {
  nth: (text) => (/^[1-9]\d*$/.test(text) ? Number(text) : 'nth needs a whole number from 1'),
  after: (text) => (/^\d+$/.test(text) ? Number(text) : 'after needs a whole number from 0'),
  every: (text) => (/^[1-9]\d*$/.test(text) ? Number(text) : 'every needs a whole number from 1'),
  p: (text) => (/^(0?\.\d+|1(\.0*)?|0)$/.test(text) && Number(text) > 0 ? Number(text) : 'p needs a probability above 0, at most 1, such as 0.2'),
};

const keyValue = /^([a-z-]+)=(.*)$/s;

/** Takes the when-words out of `words`: the rest, or the first problem. */
function takeWhen(words: Token[], when: FaultWhen): { rest: Token[] } | RuleProblem {
  const rest: Token[] = [];
  for (const word of words) {
    const pair = word.quoted ? null : keyValue.exec(word.text);
    const reader = pair ? lookup(whenKeys, pair[1]!) : undefined;
    if (!pair || !reader) {
      rest.push(word);
      continue;
    }
    const value = reader(pair[2]!);
    if (typeof value === 'string') return { problem: value };
    when[pair[1] as keyof FaultWhen] = value;
  }
  return { rest };
}

/** The match part: the method first, then key=value words. */
function readMatch(words: Token[]): { match: FaultMatch } | RuleProblem {
  const [method, ...rest] = words;
  if (!method || method.text.includes('=')) return { problem: 'a rule starts with a method (tools/call, resources/read, * for any)' };
  const match: FaultMatch = { method: method.text };
  for (const word of rest) {
    const pair = keyValue.exec(word.text);
    const key = pair?.[1] as (typeof matchKeys)[number] | undefined;
    if (!pair || !key || !matchKeys.includes(key)) {
      return { problem: `unknown match word ${word.text} (use ${[...matchKeys, ...Object.keys(whenKeys)].map((k) => `${k}=`).join(', ')})` };
    }
    const value = pair[2]!;
    if (key === 'dir') {
      if (value !== 'c2s' && value !== 's2c') return { problem: 'dir is c2s (client to server) or s2c' };
      match.dir = value;
    } else match[key] = value;
  }
  return { match };
}

/** Where the match part ends: the first unquoted word that ends in a colon. */
function splitAtColon(tokens: Token[]): { head: Token[]; tail: Token[] } | undefined {
  const at = tokens.findIndex((token) => token.bareEnd === true && token.text.endsWith(':'));
  if (at === -1) return undefined;
  const last = tokens[at]!.text.slice(0, -1);
  const head = [...tokens.slice(0, at), ...(last === '' ? [] : [{ text: last, quoted: false }])];
  return { head, tail: tokens.slice(at + 1) };
}

/** One rule read from its text, or the one problem that stops it. */
export function parseRule(text: string): FaultRule | RuleProblem {
  const read = tokenize(text);
  if ('problem' in read) return read;
  const parts = splitAtColon(read.tokens);
  if (!parts) return { problem: 'a rule is MATCH: ACTION, as in  tools/call tool=search: delay 3s  (the colon is missing)' };
  const when: FaultWhen = {};
  const head = takeWhen(parts.head, when);
  if ('problem' in head) return head;
  const tail = takeWhen(parts.tail, when);
  if ('problem' in tail) return tail;
  const match = readMatch(head.rest);
  if ('problem' in match) return match;
  const [name, ...args] = tail.rest;
  if (!name) return { problem: `no action after the colon (one of ${Object.keys(actionSpecs).join(', ')})` };
  const spec = lookup(actionSpecs, name.text);
  if (!spec || name.quoted) return { problem: `unknown action ${name.text} (one of ${Object.keys(actionSpecs).join(', ')})` };
  const action = spec.read(args);
  if ('problem' in action) return action;
  return { text: text.trim(), match: match.match, when, action: action.action };
}
