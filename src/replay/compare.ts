import diff from 'microdiff';
import { isObject } from '../protocol/jsonrpc.js';
import { withoutPrototypes } from '../protocol/own-table.js';
import { withoutIgnored } from './ignore.js';

/** One structural difference between a recorded and an actual message. */
export interface DiffEntry {
  /** Where, from the message root: `result.content[0].text`. */
  path: string;
  change: 'added' | 'removed' | 'changed';
  recorded?: unknown;
  actual?: unknown;
}

const changeNames = { CREATE: 'added', REMOVE: 'removed', CHANGE: 'changed' } as const;

/** `['result', 'content', 0, 'text']` -> `result.content[0].text`; odd keys are quoted. */
export function formatPath(path: readonly (string | number)[]): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(part)) text += text === '' ? part : `.${part}`;
    else text += `[${JSON.stringify(part)}]`;
  }
  return text === '' ? '$' : text;
}

/** The part of a message that is compared: everything but `jsonrpc` and `id`, minus the ignored paths. */
export function comparable(message: unknown, ignores: readonly string[]): unknown {
  if (!isObject(message)) return message;
  const { jsonrpc: _jsonrpc, id: _id, ...rest } = message;
  return withoutIgnored(rest, ignores);
}

/** The differences between two messages, after ignores; empty when they are the same. */
export function diffMessages(recorded: unknown, actual: unknown, ignores: readonly string[]): DiffEntry[] {
  // microdiff asks `key in object`: keys such as `toString` must be there only when the data has them.
  const left = withoutPrototypes(comparable(recorded, ignores));
  const right = withoutPrototypes(comparable(actual, ignores));
  if (!isObject(left) || !isObject(right)) {
    return JSON.stringify(left) === JSON.stringify(right) ? [] : [{ path: '$', change: 'changed', recorded: left, actual: right }];
  }
  return diff(left, right).map((change) => ({
    path: formatPath(change.path),
    change: changeNames[change.type],
    ...(change.type !== 'CREATE' ? { recorded: change.oldValue } : {}),
    ...(change.type !== 'REMOVE' ? { actual: change.value } : {}),
  }));
}
