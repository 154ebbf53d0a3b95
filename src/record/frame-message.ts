import type { RecordEntry } from './schema.js';

export function isFrameEntry(entry: RecordEntry): boolean {
  return entry.dir === 'c2s' || entry.dir === 's2c';
}

/**
 * The JSON-RPC message of a frame entry, parsed from its raw text, or undefined when it has none or
 * it is not JSON. For the first member of a batch, `raw` is the whole line: its first element.
 */
export function messageOf(entry: RecordEntry): unknown {
  if (!isFrameEntry(entry) || typeof entry.raw !== 'string' || entry.truncated) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(entry.raw);
  } catch {
    return undefined;
  }
  return Array.isArray(value) && entry.batch ? value[0] : value;
}
