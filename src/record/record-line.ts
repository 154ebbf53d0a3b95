import { isUtf8 } from 'node:buffer';
import type { FrameBytes } from '../wire/framing/frame-bytes.js';
import type { Observed } from '../wire/observe/observe-frame.js';
import { frameText, isFrameEntry, rememberText } from './frame-message.js';
import type { CapturedEntry, Envelope, FrameEntry, RecordEntry } from './schema.js';

/**
 * A frame's record line: the entry's fields, then its JSON as `msg`, spliced in as the frame's own
 * text (never escaped into a string), last, so the line reads as the facts followed by the bytes.
 * `json` must be JSON text without a line break (the writer re-serializes a frame that has one).
 */
export function splicedLine(fields: object, json: Buffer | string): [string, Buffer | string, string] {
  const head = JSON.stringify(fields);
  return [`${head.slice(0, -1)},"msg":`, json, '}\n'];
}

/** What a record holds as `msg` for a frame's text: the text itself, or re-serialized when it holds a line break. */
export function msgTextOf(text: string, message: unknown): { json: string; keepRaw: boolean } {
  return text.includes('\n') ? { json: JSON.stringify(message), keepRaw: true } : { json: text, keepRaw: false };
}

/**
 * The record line of an entry built outside the spy (an import, a capture): a frame's JSON spliced
 * in from its exact text when it is known and fits on one line, else the entry as JSON.
 */
export function recordLineOf(entry: RecordEntry): string {
  if (!isFrameEntry(entry) || entry.msg === undefined) return `${JSON.stringify(entry)}\n`;
  const text = frameText(entry);
  if (text === undefined || entry.raw !== undefined || text.includes('\n')) return `${JSON.stringify(entry)}\n`;
  const { msg: _msg, ...fields } = entry;
  return splicedLine(fields, text).join('');
}

/**
 * Marks the first frame of each session in a new protocol revision (`revChanged`), where the
 * revision first shows and wherever it changes: for the spy's entries and for imported ones alike.
 */
export function createRevisionMarks() {
  const last = new Map<string | undefined, string>();
  return {
    mark(entry: FrameEntry) {
      if (entry.rev === undefined || last.get(entry.session) === entry.rev) return;
      last.set(entry.session, entry.rev);
      entry.revChanged = true;
    },
    /** The session ended: its revision is forgotten. */
    forget: (session: string) => last.delete(session),
  };
}

/**
 * Turns what the pipeline made of one frame into a record entry: the envelope, the annotations, the
 * frame's text (`raw`/`rawBase64` when it is not JSON; `msg` when it is, its exact text remembered).
 */
export function entryOfObserved(envelope: Envelope, observed: Observed, text: string): FrameEntry {
  const { raw, rawBase64, ...annotations } = observed.observation;
  const entry = { ...envelope, ...annotations } as FrameEntry;
  if (raw !== undefined) entry.raw = raw;
  if (rawBase64 !== undefined) entry.rawBase64 = rawBase64;
  if (observed.json !== undefined) {
    entry.msg = observed.message;
    rememberText(entry, typeof observed.json === 'string' ? observed.json : text);
  }
  return entry;
}

/** What a captured frame's text is masked with before it is written: the spy's redaction, as for analysed frames. */
export interface CaptureMasks {
  /** Masks the values of a parsed message (--redact, secret names, known secrets); undefined when nothing was masked. */
  redact?: (message: unknown, raw: string) => { message: unknown; paths: string[] } | undefined;
  /** Masks known secrets in text that is not JSON. */
  scrub?: (text: string) => string;
}

/** The text parsed, when it is JSON on one line (what can be spliced as it is); undefined when not. */
function parsedJson(text: string): { value: unknown } | undefined {
  if (text.includes('\n')) return undefined;
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/**
 * The record line of a frame captured but not analysed (`kind: "captured"`), in pieces: its
 * envelope, direction, size and line ending, then its bytes, spliced in as `msg` when they are JSON
 * on one line, else as `raw` (UTF-8) or `rawBase64`. JSON is parsed only to know it may be spliced
 * (and to mask what the spy masks); nothing is classified. Readers analyse it as they read it
 * (record/captured.ts).
 */
export function capturedPieces(envelope: Envelope, dir: CapturedEntry['dir'], frame: FrameBytes, masks: CaptureMasks = {}): [string, Buffer | string, string] | string {
  const fields: CapturedEntry = { ...envelope, kind: 'captured', dir, bytes: frame.size ?? frame.bytes.length };
  if (frame.eol !== undefined && frame.eol !== '\n') fields.eol = frame.eol as CapturedEntry['eol'];
  if (frame.truncated) fields.truncated = true;
  if (!isUtf8(frame.bytes)) return `${JSON.stringify({ ...fields, rawBase64: frame.bytes.toString('base64') })}\n`;
  const text = frame.bytes.toString('utf8');
  const json = frame.truncated ? undefined : parsedJson(text);
  if (!json) {
    const scrubbed = masks.scrub?.(text) ?? text;
    if (scrubbed !== text) fields.redacted = ['$'];
    return `${JSON.stringify({ ...fields, raw: scrubbed })}\n`;
  }
  const masked = masks.redact?.(json.value, text);
  if (!masked) return splicedLine(fields, frame.bytes);
  fields.redacted = masked.paths;
  return splicedLine(fields, JSON.stringify(masked.message));
}

/** The captured frame's record line as one string (see `capturedPieces`). */
export function capturedLine(envelope: Envelope, dir: CapturedEntry['dir'], frame: FrameBytes, masks?: CaptureMasks): string {
  const pieces = capturedPieces(envelope, dir, frame, masks);
  return typeof pieces === 'string' ? pieces : pieces.map(String).join('');
}

/** The marker a capturing session leaves where the client closed its input: no frame, `closed`. */
export function capturedClose(envelope: Envelope): string {
  return `${JSON.stringify({ ...envelope, kind: 'captured', dir: 'c2s', bytes: 0, closed: true })}\n`;
}
