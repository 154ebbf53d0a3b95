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
export function entryOfObserved(envelope: Envelope, observed: Observed, text: string, mark?: (entry: FrameEntry) => void): FrameEntry {
  // The observation's `raw` or `rawBase64` is its last field, as the entry's: one copy keeps the order.
  const entry = { ...envelope, ...observed.observation } as FrameEntry;
  // Marks (a changed revision) go before `msg`, where the spy writes them.
  mark?.(entry);
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

/** The text parsed, when it is a JSON object or array on one line (what can be spliced as it is); undefined when not. */
function parsedJson(text: string): { value: unknown } | undefined {
  // Only an object or an array can be a JSON-RPC message: anything else is kept as text, unparsed.
  const first = text.charCodeAt(0);
  if ((first !== 0x7b && first !== 0x5b) || text.includes('\n')) return undefined;
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

let lastSession = '';
let lastSessionJson = '""';

/** A captured frame's fields as JSON text, without the closing brace: written by hand, as there are thousands a second. */
function capturedHead(fields: CapturedEntry): string {
  let head = `{"v":${fields.v},"seq":${fields.seq}`;
  if (fields.t !== undefined) head += `,"t":"${fields.t}"`;
  if (fields.session !== undefined) {
    if (fields.session !== lastSession) {
      lastSession = fields.session;
      lastSessionJson = JSON.stringify(fields.session);
    }
    head += `,"session":${lastSessionJson}`;
  }
  head += `,"kind":"captured","dir":"${fields.dir}","bytes":${fields.bytes}`;
  if (fields.eol !== undefined) head += `,"eol":${JSON.stringify(fields.eol)}`;
  if (fields.truncated) head += ',"truncated":true';
  if (fields.redacted) head += `,"redacted":${JSON.stringify(fields.redacted)}`;
  return head;
}

/**
 * The record line of a frame captured but not analysed (`kind: "captured"`), in pieces (`envelope`
 * is taken over for its fields, not copied: there are thousands a second): its
 * envelope, direction, size and line ending, then its bytes, spliced in as `msg` when they are a
 * JSON object or array on one line, else as `raw` (UTF-8) or `rawBase64`. JSON is parsed only to
 * know it may be spliced (and to mask what the spy masks); nothing is classified. Readers analyse
 * it as they read it (record/captured.ts).
 */
export function capturedPieces(
  envelope: Envelope,
  dir: CapturedEntry['dir'],
  frame: FrameBytes,
  masks: CaptureMasks = {},
): [string, Buffer | string, string] | string {
  const fields = envelope as CapturedEntry;
  fields.kind = 'captured';
  fields.dir = dir;
  fields.bytes = frame.size ?? frame.bytes.length;
  if (frame.eol !== undefined && frame.eol !== '\n') fields.eol = frame.eol as CapturedEntry['eol'];
  if (frame.truncated) fields.truncated = true;
  if (!isUtf8(frame.bytes)) return `${capturedHead(fields)},"rawBase64":"${frame.bytes.toString('base64')}"}\n`;
  const text = frame.bytes.toString('utf8');
  const json = frame.truncated ? undefined : parsedJson(text);
  if (!json) {
    const scrubbed = masks.scrub?.(text) ?? text;
    if (scrubbed !== text) fields.redacted = ['$'];
    return `${capturedHead(fields)},"raw":${JSON.stringify(scrubbed)}}\n`;
  }
  const masked = masks.redact?.(json.value, text);
  if (masked) fields.redacted = masked.paths;
  return [`${capturedHead(fields)},"msg":`, masked ? JSON.stringify(masked.message) : frame.bytes, '}\n'];
}

/**
 * Bytes of a span encoded at once: a multiple of 3, so that each piece's base64 ends without padding
 * and the pieces join into the span's, and small enough that each piece's string dies young.
 */
const base64Piece = 48 * 1024;

/**
 * The record line of a span of whole lines captured at once (`kind: "captured"` with `frames`), in
 * pieces: their exact bytes, each line with its ending, as `rawBase64`, and `bytes` their
 * size on the wire, endings included. The span is numbered by its first frame: its frames take `seq`
 * to `seq + frames - 1`. Written only where nothing in it is to be masked (see observer/recorder).
 */
export function capturedSpanLine(envelope: Envelope, dir: CapturedEntry['dir'], span: Buffer, frames: number): [Buffer] {
  const fields = envelope as CapturedEntry;
  fields.kind = 'captured';
  fields.dir = dir;
  fields.bytes = span.length;
  // Base64, not text: encoding is some 25 times cheaper than escaping the text for JSON, and a span
  // is written where the recorder has no time to spare. Into bytes at once: a line waiting to be
  // written as a string of its size would outlive the young generation, and the heap would grow by
  // what the spy captures. Encoded piece by piece as well: the base64 of a span of MiBs, made whole,
  // is a string of MiBs (held outside the heap) kept until a collection; the pieces' die young.
  const head = `${capturedHead(fields)},"frames":${frames},"rawBase64":"`;
  const encoded = Math.ceil(span.length / 3) * 4;
  const headBytes = Buffer.byteLength(head);
  const line = Buffer.allocUnsafeSlow(headBytes + encoded + 3);
  let at = line.write(head, 0, 'utf8');
  for (let from = 0; from < span.length; from += base64Piece) {
    at += line.write(span.toString('base64', from, Math.min(span.length, from + base64Piece)), at, 'latin1');
  }
  line.write('"}\n', at, 'latin1');
  return [line];
}

/** The captured frame's record line as one string (see `capturedPieces`). */
export function capturedLine(envelope: Envelope, dir: CapturedEntry['dir'], frame: FrameBytes, masks?: CaptureMasks): string {
  const pieces = capturedPieces(envelope, dir, frame, masks);
  return typeof pieces === 'string' ? pieces : pieces.map(String).join('');
}

/**
 * The marker a capturing session leaves where the client closed its input: no frame, `closed`,
 * numbered as the entry before it (it stands for no entry unless server requests were left open).
 */
export function capturedClose(envelope: Envelope): string {
  return `${JSON.stringify({ ...envelope, kind: 'captured', dir: 'c2s', bytes: 0, closed: true })}\n`;
}
