import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { msgTextOf, splicedLine } from '../record/record-line.js';
import { RECORD_VERSION } from '../record/schema.js';
import { classifyMessage } from '../wire/classify/classify.js';
import { errorCodeName } from '../protocol/error-codes.js';
import { ReplayError } from '../recording/errors.js';
import { withId } from '../recording/json.js';
import type { RecordedFrame } from '../recording/load.js';
import type { FrameChange } from './session-items.js';

/** The record entry of a recorded server frame, with the live frame's bytes and classification instead; undefined for a frame that has no line of its own. */
function updatedEntry(line: string, frame: RecordedFrame, live: FrameChange): string | undefined {
  // A byte order mark before the first line is kept, outside the JSON.
  const bom = line.startsWith('\ufeff') ? '\ufeff' : '';
  let entry = JSON.parse(line.slice(bom.length)) as Record<string, unknown>;
  const sameId = live.message.id === frame.id || frame.id === undefined;
  const raw = sameId && live.raw !== undefined ? live.raw : JSON.stringify(frame.id === undefined ? live.message : withId(live.message, frame.id));
  const classified = classifyMessage(live.message);
  // A frame captured alone, or a span of one, becomes the frame as readers analysed it (numbered as
  // the file numbers it; a span's text held its line ending).
  if (entry.kind === 'captured') {
    // A span of several frames: they have no line of their own to rewrite.
    if (typeof entry.frames === 'number' && entry.frames > 1) return undefined;
    const text = typeof entry.rawBase64 === 'string' ? Buffer.from(entry.rawBase64, 'base64').toString('latin1') : entry.raw;
    const crlf = entry.frames !== undefined && typeof text === 'string' && text.endsWith('\r\n');
    entry = { ...(frame.entry as unknown as Record<string, unknown>), seq: entry.seq };
    if (crlf) entry.eol = '\r\n';
  }
  entry.v = RECORD_VERSION;
  entry.kind = classified.kind;
  entry.bytes = Buffer.byteLength(raw);
  delete entry.raw;
  delete entry.msg;
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
  const { json, keepRaw } = msgTextOf(raw, live.message);
  if (keepRaw) entry.raw = raw;
  const [head, msg, end] = splicedLine(entry, json);
  return bom + head + msg + end.trimEnd();
}

const LF = 0x0a;

/** Writes with backpressure; `once` rejects when the stream fails instead. */
async function write(out: Writable, data: Buffer | string): Promise<void> {
  if (!out.write(data)) await once(out, 'drain');
}

/**
 * Copies a file line by line, bytes as they are, but for the lines (by number) given a new text (a
 * line whose replacement gives undefined is copied as it is). Returns how many lines were replaced.
 */
async function copyReplacing(path: string, out: Writable, replacements: ReadonlyMap<number, (line: string) => string | undefined>): Promise<number> {
  let lineNo = 1;
  let held: Buffer[] = [];
  let replaced = 0;
  const flushHeld = async () => {
    const line = Buffer.concat(held);
    const text = replacements.get(lineNo)!(line.toString('utf8'));
    if (text === undefined) await write(out, line);
    else {
      await write(out, text);
      replaced++;
    }
    held = [];
  };
  // Each chunk is a fresh buffer: a slice of it may wait in the stream's queue.
  for await (const data of createReadStream(path) as AsyncIterable<Buffer>) {
    let from = 0;
    let at = 0;
    for (;;) {
      const newline = data.indexOf(LF, at);
      if (replacements.has(lineNo)) {
        if (at > from) await write(out, data.subarray(from, at));
        held.push(data.subarray(at, newline === -1 ? data.length : newline));
        from = newline === -1 ? data.length : newline;
        if (newline === -1) break;
        await flushHeld();
      } else if (newline === -1) break;
      lineNo++;
      at = newline + 1;
    }
    if (from < data.length) await write(out, data.subarray(from));
  }
  if (held.length > 0) await flushHeld();
  return replaced;
}

/**
 * Rewrites a recording in place, replacing only the given server frames; every other line stays
 * byte for byte. Streamed (a line of any size is copied, never read as text) to a temporary file
 * beside it and renamed, so a crash leaves the old one whole.
 * Returns how many frames were replaced (batch members, and frames in a span of captured lines, are
 * left alone: `mcp-spy view --format jsonl` writes such a record analysed, a line per frame).
 */
export async function updateRecording(path: string, changes: readonly FrameChange[]): Promise<number> {
  const replacements = new Map(
    changes.filter((change) => !change.frame.entry.batch).map((change) => [change.frame.lineNo, (line: string) => updatedEntry(line, change.frame, change)]),
  );
  if (replacements.size === 0) return 0;
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    const out = createWriteStream(temporary, { mode: (await stat(path)).mode & 0o777 });
    const failed = once(out, 'error').then(([error]) => Promise.reject(error));
    failed.catch(() => {});
    const replaced = await Promise.race([copyReplacing(path, out, replacements), failed]);
    out.end();
    await Promise.race([once(out, 'finish'), failed]);
    await rename(temporary, path);
    return replaced;
  } catch (error) {
    await rm(temporary, { force: true });
    throw new ReplayError(`cannot update ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}
