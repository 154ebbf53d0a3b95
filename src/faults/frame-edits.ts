// Pure helpers on one line of JSON-RPC: what a rule matches on, the answers the spy makes, and the ways it spoils a frame.
import type { JsonRpcId } from '../protocol/jsonrpc.js';
import type { FrameFacts } from './matcher.js';
import type { CorruptMode } from './rule-types.js';

/** A frame read for matching: its facts, and its id when it is a request or a response. */
export interface ReadFrame {
  facts?: FrameFacts;
  /** A response's id (no method): to find the request it answers. */
  responseId?: JsonRpcId;
  /** notifications/cancelled: the request it cancels. */
  cancels?: JsonRpcId;
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Reads a line as far as matching needs; a line that is not a JSON-RPC object (a batch, noise) reads as nothing. */
export function readFrame(line: string, dir: 'c2s' | 's2c'): ReadFrame {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return {};
  }
  if (!message || typeof message !== 'object' || Array.isArray(message)) return {};
  const { method, id, params } = message as { method?: unknown; id?: unknown; params?: Record<string, unknown> };
  const hasId = typeof id === 'string' || typeof id === 'number' || id === null;
  if (typeof method !== 'string') return hasId && 'id' in (message as object) ? { responseId: id as JsonRpcId } : {};
  const p = params && typeof params === 'object' ? params : {};
  const facts: FrameFacts = { dir, method, isRequest: hasId && 'id' in (message as object) };
  if (facts.isRequest) facts.id = id as JsonRpcId;
  if (method === 'tools/call' && typeof p.name === 'string') facts.tool = p.name;
  if (method === 'prompts/get' && typeof p.name === 'string') facts.prompt = p.name;
  const uri = stringField(p.uri);
  if (uri !== undefined) facts.uri = uri;
  const cancels = method === 'notifications/cancelled' ? (p.requestId as JsonRpcId | undefined) : undefined;
  return cancels === undefined ? { facts } : { facts, cancels };
}

/** A key for an id that tells 1 from "1". */
export function idKey(id: JsonRpcId | undefined): string {
  return JSON.stringify(id ?? null);
}

export function errorAnswer(id: JsonRpcId, code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
}

export function toolErrorAnswer(id: JsonRpcId, text: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }], isError: true } });
}

/** An id that is surely not the one sent: a number moved far off, a string with a suffix. */
function wrongId(id: unknown): JsonRpcId {
  return typeof id === 'number' ? id + 1_000_000 : `${String(id)}-wrong`;
}

/** The line spoiled as the mode says (without its line ending). */
export function corruptLine(line: string, mode: CorruptMode): string {
  if (mode === 'cut') return line.slice(0, Math.max(1, Math.floor(line.length / 2)));
  if (mode === 'invalid-json') return line.replace('{', '{{');
  try {
    const message = JSON.parse(line) as Record<string, unknown>;
    return JSON.stringify({ ...message, id: wrongId(message.id) });
  } catch {
    return line.replace('{', '{{');
  }
}
