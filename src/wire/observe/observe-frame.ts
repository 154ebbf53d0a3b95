import { isUtf8 } from 'node:buffer';
import type { JsonRpcId } from '../../protocol/jsonrpc.js';
import { errorCodeName } from '../../protocol/error-codes.js';
import type { NoteId } from '../../protocol/notes.js';
import { revisionAllowsBatch } from '../../protocol/revisions.js';
import { classifyMessage, type Classified } from '../classify/classify.js';
import type { Correlator } from '../correlate/correlate.js';
import type { Correlation } from '../correlate/correlation.js';
import { decodeFrame } from '../classify/decode.js';
import { scanEnvelope } from '../classify/envelope-scan.js';
import type { Direction, FrameKind } from '../classify/kinds.js';
import type { Redaction } from '../redact/redact-frame.js';
import type { FrameBytes } from '../framing/frame-bytes.js';

/** One frame as the pipeline understood it: the record entry minus its envelope (v, seq, t, session). */
export interface FrameObservation {
  dir: Direction;
  kind: FrameKind;
  /** The frame's text, only when it is not JSON (or holds a line break, see `Observed.json`). */
  raw?: string;
  rawBase64?: string;
  /** The line ending when it was not a plain LF ("\r\n", or "" for a last line without one). */
  eol?: string;
  /** Size of the frame in bytes, without its line ending. */
  bytes: number;
  truncated?: true;
  method?: string;
  id?: JsonRpcId;
  tool?: string;
  prompt?: string;
  uri?: string;
  latencyMs?: number;
  error?: { code: unknown; message: unknown; data?: unknown };
  errorName?: string;
  rev?: string;
  related?: Correlation['related'];
  /** For a member of a JSON-RPC batch: its place in the batch. */
  batch?: { index: number; count: number };
  notes?: NoteId[];
  /** On a truncated frame: the envelope keys its kept part did not hold, so it could not be classified. */
  unread?: string[];
  /** Where values were masked before recording (JSONPath); `msg` is then the masked message, re-serialized. */
  redacted?: string[];
}

export interface ObserveContext {
  dir: Direction;
  correlator: Correlator;
  /** Called once per observation, so every frame gets its own seq before correlation. */
  nextSeq: () => number;
  timeMs: number;
  /** stdio: a server's non-JSON-RPC stdout output is noise that breaks clients. */
  transport: 'stdio' | 'http';
  /** Masks what must not be recorded (--redact, known secrets); undefined when nothing was masked. */
  redact?: (message: unknown, raw: string) => Redaction | undefined;
  /** Masks known secrets in the text of a frame that is not JSON. */
  scrub?: (text: string) => string;
  /**
   * The caller writes a cut frame's kept bytes itself, from `Observed.cut` (the spy's record): the
   * frame's text is then read only as far as its envelope and previews need (`cutTextBytes`), not
   * decoded whole into a string the record would not use. Only where `scrub` has nothing to mask.
   */
  writesCutBytes?: boolean;
}

/** How much of a cut frame's kept part is read as text when the caller writes its bytes (see `writesCutBytes`). */
export const cutTextBytes = 1024 * 1024;

/** What the bytes were: kept apart so the observation can list them last (annotations read first). */
interface FrameBase {
  dir: Direction;
  bytes: number;
  eol?: string;
  truncated?: true;
  raw?: string;
  rawBase64?: string;
  /** A frame that is JSON: what the record splices in as `msg` (see `Observed.json`). */
  json?: Buffer | string;
  batch?: FrameObservation['batch'];
  unread?: string[];
  redacted?: string[];
}

/** Builds the observation field by field, in one fixed order: cheap for V8, stable for readers. */
function assemble(
  base: FrameBase,
  kind: FrameKind,
  classified: Classified | undefined,
  correlation: Correlation | undefined,
  notes: NoteId[],
): FrameObservation {
  const out = { dir: base.dir, kind } as FrameObservation;
  if (correlation?.method !== undefined) out.method = correlation.method;
  if (classified?.hasId) out.id = classified.id ?? null;
  if (correlation) {
    if (correlation.tool !== undefined) out.tool = correlation.tool;
    if (correlation.prompt !== undefined) out.prompt = correlation.prompt;
    if (correlation.uri !== undefined) out.uri = correlation.uri;
    if (correlation.latencyMs !== undefined) out.latencyMs = correlation.latencyMs;
  }
  if (classified?.error) {
    out.error = classified.error;
    const name = errorCodeName(classified.error.code);
    if (name) out.errorName = name;
  }
  if (correlation?.rev !== undefined) out.rev = correlation.rev;
  if (correlation?.related !== undefined) out.related = correlation.related;
  if (base.batch) out.batch = base.batch;
  if (notes.length > 0) out.notes = notes;
  if (base.unread) out.unread = base.unread;
  if (base.redacted) out.redacted = base.redacted;
  out.bytes = base.bytes;
  if (base.eol !== undefined) out.eol = base.eol;
  if (base.truncated) out.truncated = true;
  if (base.raw !== undefined) out.raw = base.raw;
  else if (base.rawBase64 !== undefined) out.rawBase64 = base.rawBase64;
  return out;
}

function mergeNotes(first: NoteId[], second: NoteId[]): NoteId[] {
  if (second.length === 0) return first;
  if (first.length === 0) return second;
  return [...new Set([...first, ...second])];
}

/**
 * Turns one frame's bytes into observations: one, or one per member of a batch.
 * Each observation consumes one seq, in order, so a batch's members are numbered as they sit.
 */
/** One observation, with the parsed message it came from (for renderers that would parse it again). */
export interface Observed {
  seq: number;
  observation: FrameObservation;
  message?: unknown;
  /**
   * For a frame that is JSON, the text the record holds as its `msg`, spliced in unescaped: the
   * frame's own bytes, or, where the record cannot hold them as they are (a line break inside, a
   * masked value, a later member of a batch), the message re-serialized.
   */
  json?: Buffer | string;
  /**
   * With `writesCutBytes`, for a frame cut at the parse limit whose kept part is valid UTF-8: those
   * bytes, for the record to write as `raw` (see record/raw-bytes). The observation's `raw` then
   * holds only the start of that text, as far as `cutTextBytes`.
   */
  cut?: Buffer;
}

/**
 * Masks what must not be recorded, before anything reads the message: the frame's `raw` becomes the
 * masked message re-serialized (the wire's bytes held the secret), `bytes` stays the size on the wire.
 * A batch is masked member by member; its first member, which carries the whole line, lists every place.
 */
function redactFrame(
  message: unknown,
  text: string | undefined,
  base: FrameBase,
  context: ObserveContext,
): { message: unknown; members?: (string[] | undefined)[] } {
  const { redact } = context;
  if (!redact || text === undefined) return { message };
  const raw = text;
  if (!Array.isArray(message)) {
    const redaction = redact(message, raw);
    if (!redaction) return { message };
    base.json = JSON.stringify(redaction.message);
    delete base.raw;
    base.redacted = redaction.paths;
    return { message: redaction.message };
  }
  const redactions = message.map((member) => redact(member, raw));
  if (redactions.every((redaction) => redaction === undefined)) return { message };
  const masked = message.map((member, index) => redactions[index]?.message ?? member);
  base.json = JSON.stringify(masked);
  delete base.raw;
  base.redacted = redactions.flatMap((redaction, index) => (redaction?.paths ?? []).map((path) => `$[${index}]${path.slice(1)}`));
  return { message: masked, members: redactions.map((redaction) => redaction?.paths) };
}

export function observeFrame(frame: FrameBytes, context: ObserveContext): Observed[] {
  const { dir, correlator } = context;
  const base: FrameBase = { dir, bytes: frame.size ?? frame.bytes.length };
  if (frame.eol !== undefined && frame.eol !== '\n') base.eol = frame.eol;
  // A cut frame whose bytes the caller writes, as they are: only their start is read as text.
  const cutBytes = frame.truncated === true && context.writesCutBytes === true && !context.scrub && isUtf8(frame.bytes);
  const decoded = decodeFrame(cutBytes ? frame.bytes.subarray(0, cutTextBytes) : frame.bytes, frame.truncated === true);
  if (decoded.ok) {
    // The record holds a frame that is JSON as it came, unless a line break inside would split
    // its line: then as re-serialized JSON, with the exact text kept beside it. A frame nested
    // too deep is recorded as read, cut (its text would crash every reader that walks it).
    if (decoded.cut) base.json = JSON.stringify(decoded.value);
    else if (frame.bytes.indexOf(0x0a) === -1) base.json = frame.bytes;
    else {
      base.json = JSON.stringify(decoded.value);
      base.raw = decoded.text;
    }
  } else if ('text' in decoded && decoded.text !== undefined) base.raw = decoded.text;
  else if ('base64' in decoded && decoded.base64 !== undefined) base.rawBase64 = decoded.base64;
  const stdioNoise = dir === 's2c' && context.transport === 'stdio';

  if (!decoded.ok) {
    // Bytes that cannot be read as one message: only secrets already met can be masked in them.
    const scrubbed = base.raw !== undefined ? context.scrub?.(base.raw) : undefined;
    if (scrubbed !== undefined && scrubbed !== base.raw) {
      base.raw = scrubbed;
      base.redacted = ['$'];
    }
  }
  const tooLarge = !decoded.ok && decoded.reason === 'frame-too-large';
  if (tooLarge) base.truncated = true;
  // Past --max-frame only the start is kept: its envelope still says what the frame was, so
  // correlation survives (the message is the envelope alone, not to be rendered as the frame).
  const envelope = tooLarge && decoded.text !== undefined ? scanEnvelope(decoded.text) : undefined;
  if (envelope && envelope.unread.length > 0) base.unread = envelope.unread;
  const cut = cutBytes && tooLarge && base.raw !== undefined ? { cut: frame.bytes } : {};
  if (envelope?.message) {
    const { seq, observation } = single(envelope.message, base, true, ['frame-too-large']);
    return [{ seq, observation, ...cut }];
  }

  if (!decoded.ok) {
    const notes: NoteId[] = [decoded.reason];
    if (decoded.reason !== 'frame-too-large' && stdioNoise) notes.unshift('stdout-noise');
    const revision = correlator.revision;
    const observation = assemble(base, 'invalid', undefined, revision ? { kind: 'invalid', rev: revision, notes: [] } : undefined, notes);
    return [{ seq: context.nextSeq(), observation, ...cut }];
  }

  function single(message: unknown, memberBase: FrameBase, batchAllowed: boolean, frameNotes: NoteId[] = []) {
    const seq = context.nextSeq();
    const classified = classifyMessage(message);
    const correlation = correlator.observe({ dir, classified, message, seq, timeMs: context.timeMs });
    let notes = mergeNotes(mergeNotes(frameNotes, classified.notes), correlation.notes);
    let kind = correlation.kind;
    if (stdioNoise && classified.kind === 'invalid') notes = ['stdout-noise', ...notes];
    if (!batchAllowed) {
      notes = [...notes, 'batch-forbidden'];
      kind = 'invalid';
    }
    const observed: Observed = { seq, observation: assemble(memberBase, kind, classified, correlation, notes), message };
    if (memberBase.json !== undefined) observed.json = memberBase.json;
    return observed;
  }

  // Nested past the depth every reader walks: recorded cut there, and said so.
  const deepNotes: NoteId[] = decoded.cut ? ['nested-too-deep'] : [];
  const value = redactFrame(decoded.value, decoded.text, base, context);
  if (!Array.isArray(value.message) || value.message.length === 0) return [single(value.message, base, true, deepNotes)];
  const allowed = revisionAllowsBatch(correlator.revision);
  const count = value.message.length;
  return value.message.map((member, index) => {
    // The frame's exact bytes stay on the first member; the others carry their own JSON.
    const memberBase: FrameBase = { ...base, batch: { index, count } };
    if (index > 0) {
      memberBase.json = JSON.stringify(member);
      delete memberBase.raw;
      const masked = value.members?.[index];
      if (masked) memberBase.redacted = masked;
      else if (memberBase.redacted) delete memberBase.redacted;
    }
    return single(member, memberBase, allowed, deepNotes);
  });
}
