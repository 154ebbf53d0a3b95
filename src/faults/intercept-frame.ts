// What --intercept reads of a frame before it is delivered (the fields of the `view` filter language
// that are known by then), and the check an edited frame passes before it goes on.
import { isObject } from '../protocol/jsonrpc.js';
import type { FrameEntry } from '../record/schema.js';
import { classifyMessage } from '../wire/classify/classify.js';

type Side = 'c2s' | 's2c';

/** The requests seen, by the side that sent them and their id: an answer takes its request's method and tool. */
export type RequestsSeen = Record<Side, Map<string, { method: string; tool?: string; at: number }>>;

export const newRequestsSeen = (): RequestsSeen => ({ c2s: new Map(), s2c: new Map() });

const other = (dir: Side): Side => (dir === 'c2s' ? 's2c' : 'c2s');

/**
 * A frame as the filter reads it: kind, dir, method, tool, prompt, uri, id, code, error, bytes, time,
 * text and session, as the record will have them (an answer with its request's method and tool,
 * and its latency). What only the observer learns (seq, notes, rev) is absent, so it matches nothing.
 */
export function interceptEntry(line: string, dir: Side, session: string | undefined, sent: RequestsSeen, now = Date.now()): FrameEntry {
  const entry: FrameEntry = { v: 2, seq: 0, t: new Date(now).toISOString(), kind: 'invalid', dir, bytes: Buffer.byteLength(line) };
  if (session !== undefined) entry.session = session;
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    entry.raw = line;
    return entry;
  }
  entry.msg = message;
  const classified = classifyMessage(message);
  entry.kind = classified.kind;
  if (classified.method !== undefined) entry.method = classified.method;
  if (classified.id !== undefined) entry.id = classified.id;
  if (classified.error) entry.error = classified.error;
  const params = isObject(message) && isObject(message.params) ? message.params : {};
  if (classified.kind === 'request' || classified.kind === 'notification') {
    if (classified.method === 'tools/call' && typeof params.name === 'string') entry.tool = params.name;
    if (classified.method === 'prompts/get' && typeof params.name === 'string') entry.prompt = params.name;
    if (typeof params.uri === 'string') entry.uri = params.uri;
    if (classified.kind === 'request')
      sent[dir].set(JSON.stringify(classified.id ?? null), { method: classified.method!, ...(entry.tool ? { tool: entry.tool } : {}), at: now });
    return entry;
  }
  const request = classified.id !== undefined ? sent[other(dir)].get(JSON.stringify(classified.id)) : undefined;
  if (request) {
    sent[other(dir)].delete(JSON.stringify(classified.id));
    entry.method = request.method;
    if (request.tool !== undefined) entry.tool = request.tool;
    entry.latencyMs = now - request.at;
  }
  return entry;
}

/** What a held frame is, for the console and stderr: direction, method, tool, id. */
export interface HeldFacts {
  dir: Side;
  kind: string;
  method?: string;
  tool?: string;
  id?: string | number | null;
}

export function heldFacts(entry: FrameEntry): HeldFacts {
  const facts: HeldFacts = { dir: entry.dir as Side, kind: entry.kind };
  if (typeof entry.method === 'string') facts.method = entry.method;
  if (typeof entry.tool === 'string') facts.tool = entry.tool;
  if ('id' in entry) facts.id = entry.id as HeldFacts['id'];
  return facts;
}

/** Why a message is not JSON-RPC, in the words a person editing it needs. */
const invalidWhy: Record<string, string> = {
  'not-jsonrpc': 'not a JSON-RPC 2.0 message (an object with "jsonrpc": "2.0" and a method, or an id with a result or an error)',
  'invalid-id': 'its id must be a string, a number or null',
  'result-and-error': 'it has both a result and an error',
  'bad-error-object': 'its error must be an object with an integer code and a string message',
};

/**
 * An edited frame, checked before it goes: one JSON-RPC 2.0 message (or a batch of them), written on
 * one line (a stdio frame is a line: pretty JSON is made compact). The line to deliver, or why not.
 */
export function checkEditedFrame(text: string): { ok: true; line: string } | { ok: false; message: string } {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `the edited frame is not JSON: ${(error as Error).message}` };
  }
  const members = Array.isArray(message) ? message : [message];
  if (members.length === 0) return { ok: false, message: 'the edited frame is an empty batch' };
  for (const [index, member] of members.entries()) {
    const classified = classifyMessage(member);
    if (classified.kind !== 'invalid') continue;
    const where = Array.isArray(message) ? `member ${index + 1} of the batch` : 'the edited frame';
    return { ok: false, message: `${where} is not valid JSON-RPC: ${invalidWhy[classified.notes[0] ?? 'not-jsonrpc'] ?? classified.notes.join(', ')}` };
  }
  // Written again only when it spans lines: a frame edited on one line goes as it was typed.
  const trimmed = text.trim();
  return { ok: true, line: /[\r\n]/.test(trimmed) ? JSON.stringify(message) : trimmed };
}
