import { notesOf } from '../record/entry-fields.js';
import { isFrameEntry } from '../record/frame-message.js';
import { RECORD_VERSION, type NoteEntry, type RecordEntry } from '../record/schema.js';

/** A frame that says something is wrong: shown even while the observer is behind. */
function isTrouble(entry: RecordEntry): boolean {
  return entry.kind === 'invalid' || entry.kind === 'protocol-error' || entry.kind === 'tool-error' || notesOf(entry).length > 0;
}

/**
 * What a rendering sink (the human log, the live view) leaves out while the observer is behind the
 * traffic: ordinary frames, when a record holds them (rendering is a third of what observing a
 * frame costs, and `view` renders them from the record the same). Trouble, notes and events are
 * still shown. Once caught up, or at the end, a note says how many were left out.
 */
export function createShedding(where: string, record: string | undefined) {
  let shedding = false;
  let leftOut = 0;
  const note = (): NoteEntry | undefined => {
    if (leftOut === 0) return undefined;
    const text = `the observer was behind the traffic: ${leftOut} ordinary frame(s) left out of ${where}; the record has them all (mcp-spy view ${record})`;
    leftOut = 0;
    return { v: RECORD_VERSION, seq: 0, t: new Date().toISOString(), kind: 'note', notes: [], text };
  };
  return {
    /** Whether to leave `entry` out now (it is then counted). */
    leavesOut(entry: RecordEntry): boolean {
      if (!shedding || !isFrameEntry(entry) || isTrouble(entry)) return false;
      leftOut++;
      return true;
    },
    /** A frame the observer captured without analysing it (it was behind): left out here, counted. */
    leftOutCaptured(frames = 1): undefined {
      leftOut += frames;
      return undefined;
    },
    /** The observer is behind, or caught up: the note to show when it says what was left out. */
    behind(behind: boolean): NoteEntry | undefined {
      // Without a record, what this sink shows is all there is: it leaves nothing out.
      shedding = behind && record !== undefined;
      return behind ? undefined : note();
    },
    /** The observing is over: the note, if frames were left out since the last one. */
    last: note,
  };
}
