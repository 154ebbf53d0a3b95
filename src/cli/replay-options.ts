import { InvalidArgumentError } from 'commander';
import { readDuration } from './options.js';

/** Collects a repeatable option into a list. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** A duration in ms: 5000, 5000ms, 5s, 1.5s, 2m. */
export function parseDuration(value: string): number {
  const ms = readDuration(value);
  if (ms <= 0) throw new InvalidArgumentError('the duration must be above 0');
  return ms;
}

/** `--speed`: 0 answers at once, 1 at the recorded timing. */
export function parseSpeed(value: string): number {
  if (value !== '0' && value !== '1') throw new InvalidArgumentError('expected 0 (no delays) or 1 (recorded timing)');
  return Number(value);
}

/** The formats of `replay --format`, as commander offers them (the formatters are in replay-command.ts, typed by these names). */
export const replayFormatNames = ['text', 'json', 'junit'] as const;
