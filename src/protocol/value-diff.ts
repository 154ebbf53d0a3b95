import diff from 'microdiff';
import { isObject } from './jsonrpc.js';
import { withoutPrototypes } from './own-table.js';

/** One structural difference between two JSON values. */
export interface DiffEntry {
  /** Where, from the value's root: `result.content[0].text`. */
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

/** The differences between two JSON values (`recorded` the first, `actual` the second); empty when equal. */
export function valueDiff(recorded: unknown, actual: unknown): DiffEntry[] {
  // microdiff asks `key in object`: keys such as `toString` must be there only when the data has them.
  const left = withoutPrototypes(recorded);
  const right = withoutPrototypes(actual);
  if (!isObject(left) || !isObject(right)) {
    return JSON.stringify(left) === JSON.stringify(right) ? [] : [{ path: '$', change: 'changed', recorded: left, actual: right }];
  }
  return diff(left, right).map((item) => ({
    path: formatPath(item.path),
    change: changeNames[item.type],
    ...(item.type !== 'CREATE' ? { recorded: item.oldValue } : {}),
    ...(item.type !== 'REMOVE' ? { actual: item.value } : {}),
  }));
}
