import { isObject } from '../protocol/jsonrpc.js';
import { valueDiff, type DiffEntry } from '../protocol/value-diff.js';
import { redactedValue } from '../wire/redact/redact-frame.js';
import { withSecretNamesMasked } from '../wire/redact/secret-names.js';
import { withoutIgnored } from './ignore.js';
import { previewJson } from './json.js';

export { formatPath, type DiffEntry } from '../protocol/value-diff.js';

/** The part of a message that is compared: everything but `jsonrpc` and `id`, minus the ignored paths. */
export function comparable(message: unknown, ignores: readonly string[]): unknown {
  if (!isObject(message)) return message;
  const { jsonrpc: _jsonrpc, id: _id, ...rest } = message;
  // Secret-named members are masked in the record by default: their values are not compared.
  return withSecretNamesMasked(withoutIgnored(rest, ignores), redactedValue);
}

/** The differences between two messages, after ignores; empty when they are the same. */
export function diffMessages(recorded: unknown, actual: unknown, ignores: readonly string[]): DiffEntry[] {
  return valueDiff(comparable(recorded, ignores), comparable(actual, ignores));
}

/** One difference for people: where, and the values before and after (each cut to `limit`). */
export function describeDiff(entry: DiffEntry, limit?: number): string {
  if (entry.change === 'added') return `${entry.path}: added ${previewJson(entry.actual, limit)}`;
  if (entry.change === 'removed') return `${entry.path}: removed (was ${previewJson(entry.recorded, limit)})`;
  return `${entry.path}: ${previewJson(entry.recorded, limit)} -> ${previewJson(entry.actual, limit)}`;
}
