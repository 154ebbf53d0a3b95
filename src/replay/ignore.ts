import { existsSync, readFileSync } from 'node:fs';
import { JSONPath } from 'jsonpath-plus';
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

/** `result.content[*].text` and `$..timestamp` alike: paths are taken from the JSON-RPC message's root. */
export function normalizeIgnorePath(path: string): string {
  const trimmed = path.trim();
  if (trimmed.startsWith('$')) return trimmed;
  return trimmed.startsWith('[') || trimmed.startsWith('.') ? `$${trimmed}` : `$.${trimmed}`;
}

/** One step of a path: `.name`, `..name`, `.*`, `..` before a bracket, `[0]`, `[*]`, `['name']`, `[?(filter)]`. */
const pathStep = /^(?:\.\.?(?:[A-Za-z_$][\w$-]*|\*)|\.\.(?=\[)|\[(?:\d+|\*|'[^']*'|"[^"]*"|\?\(.+?\))\])/;

/** Checks a path once, so a typo is bad use rather than a silent no-op (or, worse, a match of everything). */
export function checkIgnorePath(path: string): string | undefined {
  const normal = normalizeIgnorePath(path);
  let rest = normal.slice(1);
  if (rest === '') return 'it selects the whole message';
  while (rest !== '') {
    const step = pathStep.exec(rest);
    if (!step) return `cannot read it from "${rest}" (expected .name, ..name, [0], [*], ['name'] or [?(filter)])`;
    rest = rest.slice(step[0].length);
  }
  try {
    JSONPath({ path: normal, json: { a: [{ b: 1 }], c: { d: 'e' } }, wrap: true });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
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
    const found = JSONPath({ path: normalizeIgnorePath(path), json: copy as object, resultType: 'all', wrap: true }) as Located[];
    // Deepest first and arrays from the end, so removing one match does not move the next.
    const ordered = [...found].sort((a, b) => (typeof b.parentProperty === 'number' && typeof a.parentProperty === 'number' ? b.parentProperty - a.parentProperty : 0));
    for (const { parent, parentProperty } of ordered) {
      if (Array.isArray(parent) && typeof parentProperty === 'number') parent.splice(parentProperty, 1, '(ignored)');
      else if (parent && typeof parent === 'object') delete (parent as Record<string, unknown>)[parentProperty];
    }
  }
  return copy;
}
