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

/**
 * The frame's text exactly as it crossed the wire (without its line ending), or undefined when the
 * entry has none (a later member of a batch, bytes that are not UTF-8). Readers use this, never a
 * field of the entry, so that they read every record version alike.
 */
export function frameText(entry: RecordEntry): string | undefined {
  if (!isFrameEntry(entry)) return undefined;
  return typeof entry.raw === 'string' ? entry.raw : undefined;
}
