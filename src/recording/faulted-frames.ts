// A recording made with fault rules (--fault): replay compares with what the server really said, so
// what the spy made, and what it never passed on, are left out; a frame it spoiled is read as sent.
import { isFrameEntry } from '../record/frame-message.js';
import type { FaultEntry, FrameEntry, RecordEntry } from '../record/schema.js';

/**
 * Actions after which the frame they matched was not passed on, or (cut-stream) was but the server's
 * answer never got to the record: either way there is nothing of the server's to compare with.
 */
const heldBack = new Set(['error', 'tool-error', 'drop', 'timeout', 'disconnect', 'cut-stream']);

/** How far from its frame a fault event is looked for: other exchanges' entries may come between (HTTP). */
const near = 8;

/**
 * The fault event of the rule that matched this frame: on stdio it follows the frame; on HTTP it comes
 * before the exchange is recorded. The same rule and, on a request, the same id tell it from another's.
 */
function faultEventOf<T extends { entry: RecordEntry }>(entries: T[], index: number, frame: FrameEntry): FaultEntry | undefined {
  for (let step = 1; step <= near; step++) {
    for (const at of [index + step, index - step]) {
      const event = entries[at]?.entry;
      if (event?.kind === 'fault' && event.rule === frame.fault && (frame.id === undefined || event.id === frame.id)) return event;
    }
  }
  return undefined;
}

/**
 * The entries as the peers really exchanged them: a made frame (`origin: "spy"` with no `original`)
 * is gone, a spoiled one is its original, and a frame followed by a fault event that held it back is gone.
 */
export function unfaultedEntries<T extends { entry: RecordEntry }>(entries: T[]): T[] {
  const kept: T[] = [];
  entries.forEach((item, index) => {
    const { entry } = item;
    if (!isFrameEntry(entry)) return void kept.push(item);
    // A frame --intercept dropped or answered at the console never reached its peer: its event says so, just before it.
    if (typeof entry.intercept === 'string' && entry.origin !== 'spy') {
      const before = entries[index - 1]?.entry;
      if (before?.kind === 'intercept' && before.hold !== undefined && (before.action === 'drop' || before.action === 'error') && before.stream === entry.dir)
        return;
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
        return void kept.push({ ...item, entry: { ...rest, raw: original } satisfies FrameEntry });
      }
      return void kept.push({ ...item, entry: { ...rest, kind: entry.kind === 'invalid' ? 'response' : entry.kind, msg, raw: original } satisfies FrameEntry });
    }
    const event = faultEventOf(entries, index, entry);
    if (event && heldBack.has(String(event.action)) && (entry.kind === 'request' || entries[index + 1]?.entry === event)) return;
    kept.push(item);
  });
  return kept;
}
