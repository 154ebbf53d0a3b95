import { isObject } from '../protocol/jsonrpc.js';
import type { RecordEntry } from '../record/schema.js';

/** Frames larger than this are previewed from their raw text, not parsed again. */
const parseLimit = 64 * 1024;

function withoutMeta(value: unknown): unknown {
  if (!isObject(value) || !('_meta' in value)) return value;
  const { _meta, ...rest } = value;
  return rest;
}

function toolErrorText(result: unknown): string | undefined {
  if (!isObject(result) || !Array.isArray(result.content)) return undefined;
  const texts = result.content.flatMap((item) => (isObject(item) && typeof item.text === 'string' ? [item.text] : []));
  return texts.length > 0 ? JSON.stringify(texts.join(' ')) : undefined;
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

/** The part of a frame worth a glance: params of a request, result of a response, raw text otherwise. */
export function previewOf(entry: RecordEntry): string {
  if (typeof entry.raw !== 'string') {
    return typeof entry.rawBase64 === 'string' ? `<${entry.bytes ?? '?'} bytes, not UTF-8>` : '';
  }
  if (entry.kind === 'invalid' || entry.raw.length > parseLimit) return entry.raw;
  let message: unknown;
  try {
    message = JSON.parse(entry.raw);
  } catch {
    return entry.raw;
  }
  if (Array.isArray(message)) message = message[0];
  if (!isObject(message)) return entry.raw;
  if (entry.kind === 'tool-error') return toolErrorText(message.result) ?? JSON.stringify(withoutMeta(message.result));
  if (entry.kind === 'protocol-error') return isObject(message.error) && 'data' in message.error ? JSON.stringify(message.error.data) : '';
  const body = 'params' in message ? message.params : 'result' in message ? message.result : undefined;
  const shown = withoutSubject(entry, withoutMeta(body));
  return shown === undefined || (isObject(shown) && Object.keys(shown).length === 0) ? '' : JSON.stringify(shown);
}
