// Reads a record back: how many frames it holds, and the gaps it admits to (with what they lost).
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export async function countRecord(path) {
  const counts = { frames: 0, gaps: 0, lost: 0 };
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  for await (const line of lines) {
    // Frame bodies sit in "raw" with their quotes escaped, so these keys only match the envelope.
    if (line.includes('"kind":"gap"')) {
      counts.gaps++;
      counts.lost += JSON.parse(line).lost ?? 0;
    } else if (line.includes('"dir":"')) counts.frames++;
  }
  return counts;
}
