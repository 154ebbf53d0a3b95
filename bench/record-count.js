// Reads a record back, through mcp-spy's own reader (build first): how many frames it holds, and the
// gaps it admits to (with the bytes they lost).
import { readRecording } from '../dist/record/open-recording.js';
import { isFrameEntry } from '../dist/record/frame-message.js';
import { frameKinds } from '../dist/wire/classify/kinds.js';

const frameKind = new Set(frameKinds);

export async function countRecord(path) {
  const counts = { frames: 0, gaps: 0, lost: 0 };
  for await (const { entry } of readRecording(path)) {
    if (entry.kind === 'gap') {
      counts.gaps++;
      counts.lost += entry.lost ?? 0;
    } else if (isFrameEntry(entry) && frameKind.has(entry.kind)) counts.frames++;
  }
  return counts;
}
