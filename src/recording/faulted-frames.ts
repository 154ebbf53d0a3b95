// A recording made with fault rules (--fault): replay compares with what the server really said, so
// what the spy made, and what it never passed on, are left out; a frame it spoiled is read as sent.
import { isFrameEntry } from '../record/frame-message.js';
import type { FrameEntry, RecordEntry } from '../record/schema.js';

/** Actions after which the frame they matched was not passed on (their fault event follows that frame). */
const heldBack = new Set(['error', 'tool-error', 'drop', 'timeout', 'disconnect']);

/**
 * The entries as the peers really exchanged them: a made frame (`origin: "spy"` with no `original`)
 * is gone, a spoiled one is its original, and a frame followed by a fault event that held it back is gone.
 */
export function unfaultedEntries<T extends { entry: RecordEntry }>(entries: T[]): T[] {
  const kept: T[] = [];
  entries.forEach((item, index) => {
    const { entry } = item;
    if (!isFrameEntry(entry) || typeof entry.fault !== 'string') return void kept.push(item);
    if (entry.origin === 'spy') {
      if (typeof entry.original !== 'string') return;
      const { raw: _raw, msg: _msg, original, ...rest } = entry;
      let msg: unknown;
      try {
        msg = JSON.parse(original);
      } catch {
        return void kept.push({ ...item, entry: { ...rest, raw: original } satisfies FrameEntry });
      }
      return void kept.push({ ...item, entry: { ...rest, kind: entry.kind === 'invalid' ? 'response' : entry.kind, msg, raw: original } satisfies FrameEntry });
    }
    const next = entries[index + 1]?.entry;
    if (next?.kind === 'fault' && next.rule === entry.fault && heldBack.has(String(next.action))) return;
    kept.push(item);
  });
  return kept;
}
