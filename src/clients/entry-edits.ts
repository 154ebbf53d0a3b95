import type { Edit, Node } from 'jsonc-parser';
import { membersOf, type ConfigText } from './config-text.js';

/** A list of strings on one line, as a person would write it in a config. */
function inlineList(values: readonly string[]): string {
  return `[${values.map((value) => JSON.stringify(value)).join(', ')}]`;
}

/** The whitespace before a node on its line, when nothing else is before it there. */
function indentBefore(text: string, offset: number): string | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  return /^[ \t]*$/.test(before) ? before : undefined;
}

/**
 * Edits that give an entry a new command and args, touching only those two values: its other fields,
 * comments and layout stay byte for byte. An entry without args gets them right after its command,
 * on a line of their own when the command has one.
 */
export function commandEdits(config: ConfigText, entry: Node, command: string, args: readonly string[]): Edit[] {
  const members = new Map(membersOf(entry).map((member) => [member.name, member.value]));
  const commandNode = members.get('command');
  if (!commandNode) return [];
  const edits: Edit[] = [{ offset: commandNode.offset, length: commandNode.length, content: JSON.stringify(command) }];
  const argsNode = members.get('args');
  if (argsNode) {
    edits.push({ offset: argsNode.offset, length: argsNode.length, content: inlineList(args) });
    return edits;
  }
  const property = commandNode.parent!;
  const indent = indentBefore(config.text, property.offset);
  const eol = config.text.includes('\r\n') ? '\r\n' : '\n';
  const separator = indent === undefined ? ' ' : `${eol}${indent}`;
  edits.push({ offset: commandNode.offset + commandNode.length, length: 0, content: `,${separator}"args": ${inlineList(args)}` });
  return edits;
}
