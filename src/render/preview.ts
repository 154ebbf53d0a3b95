import { isObject } from '../protocol/jsonrpc.js';
import type { FrameEntry } from '../record/schema.js';
import { boundedJson, emptyBut } from './bounded-json.js';
import { truncate } from './sanitize.js';
import { summarize } from './summaries.js';

const omitMeta: ReadonlySet<string> = new Set(['_meta']);
const omitMetaName: ReadonlySet<string> = new Set(['_meta', 'name']);
const omitMetaUri: ReadonlySet<string> = new Set(['_meta', 'uri']);

/**
 * The keys a preview leaves out of a frame's params or result: `_meta`, and the tool, prompt or
 * resource of a request, which the line names already.
 */
function omittedOf(entry: FrameEntry, body: object): ReadonlySet<string> {
  if (entry.kind !== 'request') return omitMeta;
  if ((entry.tool !== undefined || entry.prompt !== undefined) && 'name' in body) return omitMetaName;
  if (entry.uri !== undefined && 'uri' in body) return omitMetaUri;
  return omitMeta;
}

/**
 * The part of a frame worth a glance, at most `max` characters (and "…"): the summary of its
 * method when there is one (tool names, the server's name), else params of a request, result of a
 * response, raw text otherwise. `message` is the frame already parsed, when the caller
 * has it; without it the raw text is parsed here.
 */
export function previewOf(entry: FrameEntry, max: number, message?: unknown): string {
  message ??= entry.msg;
  if (message === undefined) {
    if (typeof entry.raw === 'string') return truncate(entry.raw, max);
    return typeof entry.rawBase64 === 'string' ? `<${entry.bytes ?? '?'} bytes, not UTF-8>` : '';
  }
  if (Array.isArray(message)) message = message[0];
  if (entry.kind === 'invalid' || !isObject(message)) return boundedJson(message, max);
  if (entry.kind === 'protocol-error') return isObject(message.error) && 'data' in message.error ? boundedJson(message.error.data, max) : '';
  const side = 'params' in message || 'method' in message ? 'request' : 'response';
  const body = side === 'request' ? message.params : message.result;
  const summary = summarize(entry.kind === 'tool-error' ? 'tools/call' : entry.method, side, body, max);
  if (summary !== undefined) return truncate(summary, max);
  if (body === undefined) return '';
  if (!isObject(body)) return boundedJson(body, max);
  const omit = omittedOf(entry, body);
  return emptyBut(body, omit) ? '' : boundedJson(body, max, omit);
}
