import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

/** A config's text, parsed into a tree that keeps each value's place in the text (so edits touch nothing else). */
export interface ConfigText {
  text: string;
  root: Node;
}

/** The line and column (1-based) of an offset, for messages. */
function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

/** The parser's error codes in words: a user who wrote the file reads these, not `InvalidCommentToken`. */
const parseErrorWords: Partial<Record<string, string>> = {
  InvalidCommentToken: 'a comment, which this client does not allow in its file',
  PropertyNameExpected: 'a property name expected (a comma before a closing brace?)',
  ValueExpected: 'a value expected (a comma before a closing bracket?)',
  CommaExpected: 'a comma expected',
  ColonExpected: 'a colon expected',
  CloseBraceExpected: 'a closing brace expected',
  CloseBracketExpected: 'a closing bracket expected',
  EndOfFileExpected: 'the end of the file expected',
  UnexpectedEndOfString: 'a string not closed',
  UnexpectedEndOfComment: 'a comment not closed',
  InvalidSymbol: 'an unexpected character',
};

/**
 * Parses a config. json: strict JSON, as the clients that read it with JSON.parse demand (a comment
 * there would break the client); jsonc: comments and trailing commas, as VS Code allows. A file that
 * does not parse is refused with where and why: never half-read, never rewritten.
 */
export function parseConfig(text: string, syntax: 'json' | 'jsonc'): { ok: true; config: ConfigText } | { ok: false; why: string } {
  const errors: ParseError[] = [];
  const body = text.startsWith('\uFEFF') ? ` ${text.slice(1)}` : text;
  const root = parseTree(body, errors, { disallowComments: syntax === 'json', allowTrailingComma: syntax === 'jsonc', allowEmptyContent: false });
  const first = errors[0];
  if (first)
    return {
      ok: false,
      why: `not valid ${syntax === 'json' ? 'JSON' : 'JSON with comments'} at ${lineAndColumn(text, first.offset)}: ${parseErrorWords[printParseErrorCode(first.error)] ?? printParseErrorCode(first.error)}`,
    };
  if (root?.type !== 'object') return { ok: false, why: 'its top level is not an object' };
  return { ok: true, config: { text, root } };
}

/** The node at a path of keys, or undefined. */
export function nodeAt(config: ConfigText, path: string[]): Node | undefined {
  return findNodeAtLocation(config.root, path);
}

/** The JSON value of a node, as plain objects (the parser's have no prototype, which deep equality would hold against them). */
export function plainValueOf(node: Node): unknown {
  return JSON.parse(JSON.stringify(getNodeValue(node)));
}

/** The exact text of a node, comments inside it included. */
export function textOf(config: ConfigText, node: Node): string {
  return config.text.slice(node.offset, node.offset + node.length);
}

/** The members of an object node, in the order of the text: name, the value's node. */
export function membersOf(node: Node): { name: string; value: Node }[] {
  if (node.type !== 'object') return [];
  const members: { name: string; value: Node }[] = [];
  for (const property of node.children ?? []) {
    const [key, value] = property.children ?? [];
    if (key && value && typeof key.value === 'string') members.push({ name: key.value, value });
  }
  return members;
}
