import { lookup } from '../protocol/own-table.js';
import type { RecordEntry } from '../record/schema.js';
import { fieldNames, filterFields, type FieldValue } from './filter-fields.js';
import { kindNamed, kindsInWords } from './kind-names.js';
import { parseTimePoint, type TimePoint } from './time-point.js';
import { globToRegExp } from '../protocol/name-pattern.js';

type Token = { type: 'word' | 'string' | 'number' | 'op' | 'paren'; text: string; column: number };

const operators = ['==', '!=', '<=', '>=', '!~', '=', '<', '>', '~'] as const;
type Operator = (typeof operators)[number];

type Node =
  | { type: 'and' | 'or'; left: Node; right: Node }
  | { type: 'not'; operand: Node }
  | { type: 'has'; field: string }
  | { type: 'compare'; field: string; op: Operator; value: string | number }
  | { type: 'time'; op: Operator; point: Extract<TimePoint, { ok: true }> };

export type ParsedFilter = { ok: true; test: (entry: RecordEntry) => boolean } | { ok: false; message: string };

class ParseFailure extends Error {}

const fail = (message: string, column: number): never => {
  throw new ParseFailure(`${message} at column ${column}`);
};

const wordChar = /[A-Za-z0-9_\-/.:*@#$]/;
const keywords: Record<string, string> = { and: 'and', '&&': 'and', or: 'or', '||': 'or', not: 'not', '!': 'not' };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < source.length) {
    const char = source[at]!;
    const column = at + 1;
    if (/\s/.test(char)) {
      at++;
    } else if (char === '(' || char === ')') {
      tokens.push({ type: 'paren', text: char, column });
      at++;
    } else if (char === '"' || char === "'") {
      let value = '';
      at++;
      while (at < source.length && source[at] !== char) {
        if (source[at] === '\\' && at + 1 < source.length) at++;
        value += source[at];
        at++;
      }
      if (at >= source.length) fail('unterminated string', column);
      at++;
      tokens.push({ type: 'string', text: value, column });
    } else if (source.startsWith('&&', at) || source.startsWith('||', at)) {
      tokens.push({ type: 'word', text: source.slice(at, at + 2), column });
      at += 2;
    } else if (operators.some((op) => source.startsWith(op, at))) {
      const op = operators.find((candidate) => source.startsWith(candidate, at))!;
      tokens.push({ type: 'op', text: op, column });
      at += op.length;
    } else if (char === '!') {
      tokens.push({ type: 'word', text: '!', column });
      at++;
    } else if (wordChar.test(char)) {
      let end = at;
      while (end < source.length && wordChar.test(source[end]!)) end++;
      const word = source.slice(at, end);
      tokens.push({ type: /^-?\d+(\.\d+)?$/.test(word) ? 'number' : 'word', text: word, column });
      at = end;
    } else {
      fail(`unexpected '${char}'`, column);
    }
  }
  return tokens;
}

function parse(tokens: Token[], source: string, local: boolean): Node {
  let at = 0;
  const peek = () => tokens[at];
  const end = source.length + 1;
  const keyword = (token: Token | undefined) => (token?.type === 'word' ? lookup(keywords, token.text.toLowerCase()) : undefined);

  function primary(): Node {
    const token = peek();
    if (!token) return fail('expected a field or "("', end);
    if (token.type === 'paren' && token.text === '(') {
      at++;
      const inner = or();
      const close = peek();
      if (close?.type !== 'paren' || close.text !== ')') fail('expected ")"', close?.column ?? end);
      at++;
      return inner;
    }
    if (token.type !== 'word' || keyword(token)) return fail(`expected a field, got '${token.text}'`, token.column);
    const field = token.text.toLowerCase();
    if (!Object.hasOwn(filterFields, field)) fail(`unknown field '${token.text}' (fields: ${fieldNames.join(', ')})`, token.column);
    at++;
    const op = peek();
    if (op?.type !== 'op') return { type: 'has', field };
    at++;
    const value = peek();
    if (!value || value.type === 'op' || value.type === 'paren' || keyword(value)) {
      return fail(`expected a value after '${op.text}'`, value?.column ?? end);
    }
    at++;
    // `time` means what --since and --until mean: a UTC clock time or date, not the ISO text.
    if (field === 'time' && op.text !== '~' && op.text !== '!~') {
      const point = parseTimePoint(value.text, local);
      if (!point.ok) return fail(`time ${op.text} ${value.text}: ${point.message}`, value.column);
      return { type: 'time', op: op.text as Operator, point };
    }
    // A kind is named as the log shows it (`proto-error`) or as the record has it; another name matches nothing, so it is an error.
    if (field === 'kind' && (op.text === '=' || op.text === '==' || op.text === '!=') && !value.text.includes('*')) {
      const kind = kindNamed(value.text);
      if (kind === undefined) return fail(`unknown kind '${value.text}' (kinds: ${kindsInWords})`, value.column);
      return { type: 'compare', field, op: op.text as Operator, value: kind };
    }
    return { type: 'compare', field, op: op.text as Operator, value: value.type === 'number' ? Number(value.text) : value.text };
  }

  function not(): Node {
    if (keyword(peek()) === 'not') {
      at++;
      return { type: 'not', operand: not() };
    }
    return primary();
  }

  function binary(kind: 'and' | 'or', next: () => Node): () => Node {
    return () => {
      let left = next();
      while (keyword(peek()) === kind) {
        at++;
        left = { type: kind, left, right: next() };
      }
      return left;
    };
  }
  const and = binary('and', not);
  const or = binary('or', and);

  const tree = or();
  const rest = peek();
  if (rest) fail(`unexpected '${rest.text}'`, rest.column);
  return tree;
}

function compareOne(actual: string | number, op: Operator, expected: string | number): boolean {
  if (op === '~' || op === '!~') {
    const found = String(actual).toLowerCase().includes(String(expected).toLowerCase());
    return op === '~' ? found : !found;
  }
  if (op === '=' || op === '==' || op === '!=') {
    const equal = typeof expected === 'string' && expected.includes('*') ? globToRegExp(expected).test(String(actual)) : String(actual) === String(expected);
    return op === '!=' ? !equal : equal;
  }
  const numeric = typeof actual === 'number' && typeof expected === 'number';
  const [a, b] = numeric ? [actual, expected] : [String(actual), String(expected)];
  return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
}

function compare(actual: FieldValue, op: Operator, expected: string | number): boolean {
  const negative = op === '!=' || op === '!~';
  if (actual === undefined) return negative;
  if (Array.isArray(actual)) {
    return negative ? actual.every((item) => compareOne(item, op, expected)) : actual.some((item) => compareOne(item, op, expected));
  }
  return compareOne(actual, op, expected);
}

function evaluate(node: Node, entry: RecordEntry): boolean {
  switch (node.type) {
    case 'and':
      return evaluate(node.left, entry) && evaluate(node.right, entry);
    case 'or':
      return evaluate(node.left, entry) || evaluate(node.right, entry);
    case 'not':
      return !evaluate(node.operand, entry);
    case 'has':
      return filterFields[node.field]!(entry) !== undefined;
    case 'compare':
      return compare(filterFields[node.field]!(entry), node.op, node.value);
    case 'time':
      return compare(node.point.read(entry.t), node.op, node.point.at);
  }
}

/**
 * Parses a filter expression such as `tool = "search" and latency > 500`. A pure stage: a bad
 * expression is a value saying what is wrong and where, never an exception.
 */
export function parseFilter(source: string, options: { local?: boolean } = {}): ParsedFilter {
  try {
    const tree = parse(tokenize(source), source, options.local ?? false);
    return { ok: true, test: (entry) => evaluate(tree, entry) };
  } catch (error) {
    if (error instanceof ParseFailure) return { ok: false, message: error.message };
    throw error;
  }
}
