import { InvalidArgumentError } from 'commander';
import { readDuration } from './options.js';

/** The choices of `check`, apart from the command so that the program loads without the rule engine. */
export const checkFormats = ['text', 'json', 'junit', 'sarif'] as const;
export type CheckFormat = (typeof checkFormats)[number];

/** Collects repeated (or comma-joined) `--rule ID=level` options. */
export function collectRule(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').filter((part) => part.trim() !== '')];
}

/** Collects repeated `--max-duration METHOD=DURATION` options (`tools/call=2s`, `tool:search=500ms`, `resources/*=1s`). */
export function collectMaxDuration(value: string, previous: { pattern: string; ms: number }[] = []): { pattern: string; ms: number }[] {
  const at = value.lastIndexOf('=');
  const pattern = at > 0 ? value.slice(0, at).trim() : '';
  let ms = Number.NaN;
  try {
    ms = at > 0 ? readDuration(value.slice(at + 1)) : Number.NaN;
  } catch {
    // Said below, with what was expected.
  }
  if (pattern === '' || !(ms > 0)) throw new InvalidArgumentError('expected METHOD=DURATION, e.g. tools/call=2s, tool:search=500ms or resources/*=1s');
  return [...previous, { pattern, ms }];
}
