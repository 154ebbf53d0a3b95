// A recording made with fault rules (--fault): replay compares with what the server really said, so
// what the spy made, and what it never passed on, are left out; a frame it spoiled is read as sent.
import type { RecordEntry } from '../record/schema.js';

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
    // A frame --intercept dropped or answered at the console never reached its peer: its event says so, just before it.
    if (typeof entry.intercept === 'string' && entry.origin !== 'spy') {
      const before = entries[index - 1]?.entry;
      if (before?.kind === 'intercept' && before.hold !== undefined && (before.action === 'drop' || before.action === 'error') && before.stream === entry.dir) return;
      return void kept.push(item);
    }
    if (typeof entry.fault !== 'string' && typeof entry.intercept !== 'string') return void kept.push(item);
    if (entry.origin === 'spy') {
      if (typeof entry.original !== 'string') return;
      const { raw: _raw, msg: _msg, original, ...rest } = entry;
      let msg: unknown;
      try {
        msg = JSON.parse(original);
      } catch {
        return void kept.push({ ...item, entry: { ...rest, raw: original } as RecordEntry });
      }
      return void kept.push({ ...item, entry: { ...rest, kind: entry.kind === 'invalid' ? 'response' : entry.kind, msg, raw: original } as RecordEntry });
    }
    const next = entries[index + 1]?.entry;
    if (next?.kind === 'fault' && next.rule === entry.fault && heldBack.has(String(next.action))) return;
    kept.push(item);
  });
  return kept;
}
