import { applyEdits, type Edit } from 'jsonc-parser';
import { isDeepStrictEqual } from 'node:util';
import { nodeAt, parseConfig, plainValueOf } from './config-text.js';
import type { WrappedEntry } from './wrap-manifest.js';

/** What unwrap does with one entry it wrapped. */
export interface UnwrapNote {
  entry: WrappedEntry;
  /** restored: back to its exact text; gone: the entry is no longer there; changed: edited since, left as it is. */
  outcome: 'restored' | 'gone' | 'changed';
}

/** The unwrap of one file: its text after, each entry's outcome, and the manifest entries still owed (those left as they are). */
export interface UnwrapPlan {
  after: string;
  notes: UnwrapNote[];
  kept: WrappedEntry[];
}

/**
 * Puts back each entry wrap changed, as the exact text it had, wherever it is in the file now (the
 * user or the client may have edited other entries or keys since). An entry edited since it was
 * wrapped is not the value wrap wrote: it is left as it is, since restoring would undo that edit.
 */
export function planUnwrap(
  text: string,
  syntax: 'json' | 'jsonc',
  entries: readonly WrappedEntry[],
): { ok: true; plan: UnwrapPlan } | { ok: false; why: string } {
  const parsed = parseConfig(text, syntax);
  if (!parsed.ok) return parsed;
  const edits: Edit[] = [];
  const notes: UnwrapNote[] = [];
  const kept: WrappedEntry[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    // One entry, one restore: a second record of the same entry would be an overlapping edit.
    const key = JSON.stringify(entry.path);
    if (seen.has(key)) continue;
    seen.add(key);
    const node = nodeAt(parsed.config, entry.path);
    if (!node) {
      notes.push({ entry, outcome: 'gone' });
    } else if (!isDeepStrictEqual(plainValueOf(node), entry.wrapped)) {
      notes.push({ entry, outcome: 'changed' });
      kept.push(entry);
    } else {
      edits.push({ offset: node.offset, length: node.length, content: entry.original });
      notes.push({ entry, outcome: 'restored' });
    }
  }
  const after = applyEdits(text, edits);
  const reparsed = parseConfig(after, syntax);
  if (!reparsed.ok) return { ok: false, why: `restoring would make a config that does not parse (${reparsed.why}): nothing written` };
  return { ok: true, plan: { after, notes, kept } };
}
