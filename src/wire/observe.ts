import type { JsonRpcId } from '../protocol/jsonrpc.js';
import { errorCodeName } from '../protocol/error-codes.js';
import type { NoteId } from '../protocol/notes.js';
import { revisionAllowsBatch } from '../protocol/revisions.js';
import { classifyMessage, type Classified } from './classify.js';
import type { Correlation, Correlator } from './correlate.js';
import { decodeFrame } from './decode.js';
import type { Direction, FrameKind } from './kinds.js';

/** One frame as the pipeline understood it: the record entry minus its envelope (v, seq, t, session). */
export interface FrameObservation {
  dir: Direction;
  kind: FrameKind;
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
}

export interface FrameBytes {
  bytes: Buffer;
  eol?: string;
  size?: number;
  truncated?: boolean;
}

export interface ObserveContext {
  dir: Direction;
  correlator: Correlator;
  /** Called once per observation, so every frame gets its own seq before correlation. */
  nextSeq: () => number;
  timeMs: number;
  /** stdio: a server's non-JSON-RPC stdout output is noise that breaks clients. */
  transport: 'stdio' | 'http';
}

function merge(base: FrameObservation, classified: Classified, correlation: Correlation): FrameObservation {
  const out: FrameObservation = { ...base, ...correlation, kind: correlation.kind };
  if (classified.hasId) out.id = classified.id ?? null;
  if (classified.error) {
    out.error = classified.error;
    const name = errorCodeName(classified.error.code);
    if (name) out.errorName = name;
  }
  const notes = [...new Set([...classified.notes, ...correlation.notes])];
  if (notes.length > 0) out.notes = notes;
  else delete out.notes;
  return out;
}

/**
 * Turns one frame's bytes into observations: one, or one per member of a batch.
 * Each observation consumes one seq, in order, so a batch's members are numbered as they sit.
 */
export function observeFrame(frame: FrameBytes, context: ObserveContext): { seq: number; observation: FrameObservation }[] {
  const { dir, correlator } = context;
  const size = frame.size ?? frame.bytes.length;
  const base: FrameObservation = { dir, kind: 'invalid', bytes: size };
  if (frame.eol !== undefined && frame.eol !== '\n') base.eol = frame.eol;
  const decoded = decodeFrame(frame.bytes, frame.truncated === true);
  if ('text' in decoded && decoded.text !== undefined) base.raw = decoded.text;
  else if ('base64' in decoded && decoded.base64 !== undefined) base.rawBase64 = decoded.base64;

  if (!decoded.ok) {
    const notes: NoteId[] = [decoded.reason];
    if (decoded.reason === 'frame-too-large') base.truncated = true;
    else if (dir === 's2c' && context.transport === 'stdio') notes.unshift('stdout-noise');
    if (correlator.revision) base.rev = correlator.revision;
    return [{ seq: context.nextSeq(), observation: { ...base, notes } }];
  }

  const single = (message: unknown, batch?: FrameObservation['batch']) => {
    const seq = context.nextSeq();
    const classified = classifyMessage(message);
    const correlation = correlator.observe({ dir, classified, message, seq, timeMs: context.timeMs });
    const observation = merge(batch ? { ...base, batch } : base, classified, correlation);
    if (dir === 's2c' && context.transport === 'stdio' && classified.kind === 'invalid') {
      observation.notes = ['stdout-noise', ...(observation.notes ?? [])];
    }
    return { seq, observation };
  };

  if (!Array.isArray(decoded.value) || decoded.value.length === 0) return [single(decoded.value)];
  const allowed = revisionAllowsBatch(correlator.revision);
  const count = decoded.value.length;
  return decoded.value.map((member, index) => {
    const result = single(member, { index, count });
    // The frame's exact bytes stay on the first member; the others carry their own JSON.
    if (index > 0) result.observation.raw = JSON.stringify(member);
    if (!allowed) {
      result.observation.notes = [...(result.observation.notes ?? []), 'batch-forbidden'];
      result.observation.kind = 'invalid';
    }
    return result;
  });
}
