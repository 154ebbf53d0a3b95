import { isObject } from '../protocol/jsonrpc.js';
import type { RecordEntry } from '../record/schema.js';
import { boundedJson } from './bounded-json.js';
import { truncate } from './sanitize.js';
import { summarize } from './summaries.js';


function withoutMeta(value: unknown): unknown {
  if (!isObject(value) || !('_meta' in value)) return value;
  const { _meta, ...rest } = value;
  return rest;
}

/** The tool, prompt or resource is on the line already; show what comes with it. */
function withoutSubject(entry: RecordEntry, params: unknown): unknown {
  if (entry.kind !== 'request' || !isObject(params)) return params;
  if ((entry.tool !== undefined || entry.prompt !== undefined) && 'name' in params) {
    const { name, ...rest } = params;
    return rest;
  }
  if (entry.uri !== undefined && 'uri' in params) {
    const { uri, ...rest } = params;
    return rest;
  }
  return params;
}

/**
 * The part of a frame worth a glance, at most `max` characters (and "…"): the summary of its
 * method when there is one (tool names, the server's name), else params of a request, result of a
 * response, raw text otherwise. `message` is the frame already parsed, when the caller
 * has it; without it the raw text is parsed here.
 */
export function previewOf(entry: RecordEntry, max: number, message?: unknown): string {
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
  const shown = withoutSubject(entry, withoutMeta(body));
  return shown === undefined || (isObject(shown) && Object.keys(shown).length === 0) ? '' : boundedJson(shown, max);
}
