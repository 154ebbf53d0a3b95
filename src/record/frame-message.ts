import { isFrameKind } from '../wire/classify/kinds.js';
import type { FrameEntry, RecordEntry } from './schema.js';

/** Is this entry a frame (and not an event)? The one test, by `kind`: the reader made sure a frame has its direction. */
export function isFrameEntry(entry: RecordEntry): entry is FrameEntry {
  return isFrameKind(entry.kind);
}

/**
 * Where a frame's exact text lives once its line is parsed: the record line it was spliced into
 * (found again on demand, so readers keep no second copy), or the text itself (a v1 `raw`, a capture).
 */
const wireTexts = new WeakMap<object, { line: string } | { text: string }>();

/** Remembers the record line a v2 frame entry was parsed from, so its exact text can be cut out of it. */
export function rememberLine(entry: RecordEntry, line: string): void {
  if (isFrameEntry(entry) && entry.msg !== undefined && entry.raw === undefined) wireTexts.set(entry, { line });
}

/** Remembers a frame's exact text (read from an older record or a capture). */
export function rememberText(entry: object, text: string): void {
  wireTexts.set(entry, { text });
}

/**
 * The text of the top-level `msg` member of a record line: everything after its colon up to the
 * closing brace (the writer puts `msg` last). Only the fields before it are scanned, as JSON tokens,
 * so a `"msg":` inside a string or a nested object is never taken for it.
 */
export function splicedText(line: string): string | undefined {
  const end = line.lastIndexOf('}');
  let depth = 0;
  for (let index = 0; index < end; index++) {
    const char = line.charCodeAt(index);
    if (char === 0x22 /* " */) {
      const start = index;
      for (index++; index < end && line.charCodeAt(index) !== 0x22; index++) if (line.charCodeAt(index) === 0x5c) index++;
      if (depth === 1 && line.startsWith('"msg"', start) && index === start + 4) {
        let colon = index + 1;
        while (colon < end && line.charCodeAt(colon) !== 0x3a) colon++;
        return line.slice(colon + 1, end);
      }
    } else if (char === 0x7b /* { */ || char === 0x5b /* [ */) depth++;
    else if (char === 0x7d /* } */ || char === 0x5d /* ] */) depth--;
  }
  return undefined;
}

/**
 * The JSON-RPC message of a frame entry, or undefined when it has none (not JSON, cut short). For
 * the first member of a batch, `msg` is the whole batch: its first element.
 */
export function messageOf(entry: RecordEntry): unknown {
  if (!isFrameEntry(entry) || entry.msg === undefined) return undefined;
  return Array.isArray(entry.msg) && entry.batch ? entry.msg[0] : entry.msg;
}

/** The text of an entry: a frame's (see `frameText`), or a stderr line's; what `view --text` searches. */
export function textOf(entry: RecordEntry): string | undefined {
  return isFrameEntry(entry) ? frameText(entry) : entry.kind === 'stderr' && typeof entry.raw === 'string' ? entry.raw : undefined;
}

/**
 * The frame's text exactly as it crossed the wire (without its line ending), or undefined when the
 * entry has none (bytes that are not UTF-8). Readers use this, never a field of the entry, so that
 * they read every record version alike. A masked frame's text is its masked message.
 */
export function frameText(entry: RecordEntry): string | undefined {
  if (!isFrameEntry(entry)) return undefined;
  if (typeof entry.raw === 'string') return entry.raw;
  const kept = wireTexts.get(entry);
  if (kept) return 'text' in kept ? kept.text : splicedText(kept.line);
  return entry.msg === undefined ? undefined : JSON.stringify(entry.msg);
}
