import { existsSync, readFileSync } from 'node:fs';
import { JSONPath } from 'jsonpath-plus';
import { checkJsonPath, normalizeJsonPath } from '../wire/redact/json-path.js';
import { ReplayError } from './errors.js';
import { cloneJson } from './json.js';

/**
 * Ignored in every comparison and match: `_meta` at any depth (server info, progress tokens, 2026
 * request facts), and the clock times a task carries (when the live server created and updated it).
 */
export const defaultIgnores = ['$.._meta', '$..createdAt', '$..lastUpdatedAt'] as const;

/** The ignore file beside a recording: `wire.jsonl` -> `wire.jsonl.ignore`, one path a line, `#` comments. */
export function ignoreFileOf(recordPath: string): string {
  return `${recordPath}.ignore`;
}

/** Reads the ignore file beside a recording, if there is one. */
export function readIgnoreFile(recordPath: string): string[] {
  const path = ignoreFileOf(recordPath);
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line !== '');
}

// The path syntax is shared with --redact, which works on frames as they are recorded.
export { checkJsonPath as checkIgnorePath, normalizeJsonPath as normalizeIgnorePath } from '../wire/redact/json-path.js';

/** Paths the user gave, checked once: a typo is bad use, not a silent no-op. */
export function checkedPaths(paths: readonly string[], what: string, where = ''): readonly string[] {
  for (const path of paths) {
    const problem = checkJsonPath(path);
    if (problem) throw new ReplayError(`bad ${what} path ${path}${where}: ${problem}`);
  }
  return paths;
}

/** The ignores in force: `_meta` always, then the recording's ignore file, then the caller's. */
export function ignoresFor(recording: string, extra: readonly string[] = [], useFile = true): string[] {
  const fromFile = useFile ? readIgnoreFile(recording) : [];
  return [...defaultIgnores, ...checkedPaths(fromFile, 'ignore', ` in ${ignoreFileOf(recording)}`), ...checkedPaths(extra, 'ignore')];
}

interface Located {
  parent: unknown;
  parentProperty: string | number;
}

/** A copy of `value` without what the paths select. The value itself is left alone. */
export function withoutIgnored(value: unknown, paths: readonly string[]): unknown {
  if (paths.length === 0 || typeof value !== 'object' || value === null) return value;
  const copy = cloneJson(value);
  for (const path of paths) {
    const found = JSONPath({ path: normalizeJsonPath(path), json: copy as object, resultType: 'all', wrap: true }) as Located[];
    // Deepest first and arrays from the end, so removing one match does not move the next.
    const ordered = [...found].sort((a, b) =>
      typeof b.parentProperty === 'number' && typeof a.parentProperty === 'number' ? b.parentProperty - a.parentProperty : 0,
    );
    for (const { parent, parentProperty } of ordered) {
      if (Array.isArray(parent) && typeof parentProperty === 'number') parent.splice(parentProperty, 1, '(ignored)');
      else if (parent && typeof parent === 'object') delete (parent as Record<string, unknown>)[parentProperty];
    }
  }
  return copy;
}
