import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { classifyMessage } from '../wire/classify.js';
import { errorCodeName } from '../protocol/error-codes.js';
import { withId } from './json.js';
import type { RecordedFrame } from './load.js';
import type { FrameChange } from './session-items.js';

/** The record entry of a recorded server frame, with the live frame's bytes and classification instead. */
function updatedEntry(line: string, frame: RecordedFrame, live: FrameChange): string {
  const entry = JSON.parse(line) as Record<string, unknown>;
  const sameId = live.message.id === frame.id || frame.id === undefined;
  const raw = sameId && live.raw !== undefined ? live.raw : JSON.stringify(frame.id === undefined ? live.message : withId(live.message, frame.id));
  const classified = classifyMessage(live.message);
  entry.kind = classified.kind;
  entry.raw = raw;
  entry.bytes = Buffer.byteLength(raw);
  delete entry.rawBase64;
  delete entry.truncated;
  if (classified.error) {
    entry.error = classified.error;
    const name = errorCodeName(classified.error.code);
    if (name) entry.errorName = name;
    else delete entry.errorName;
  } else {
    delete entry.error;
    delete entry.errorName;
  }
  return JSON.stringify(entry);
}

/**
 * Rewrites a recording in place, replacing only the given server frames; every other line stays
 * byte for byte. Written to a temporary file beside it and renamed, so a crash leaves the old one whole.
 * Returns how many frames were replaced (batch members are left alone).
 */
export function updateRecording(path: string, changes: readonly FrameChange[]): number {
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  let replaced = 0;
  for (const change of changes) {
    const { frame } = change;
    if (frame.entry.batch) continue;
    const at = frame.lineNo - 1;
    lines[at] = updatedEntry(lines[at]!, frame, change);
    replaced++;
  }
  if (replaced === 0) return 0;
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  writeFileSync(temporary, lines.join('\n'), { mode: statSync(path).mode & 0o777 });
  renameSync(temporary, path);
  return replaced;
}
