import { isObject, type JsonObject } from '../protocol/jsonrpc.js';
import { lookup } from '../protocol/own-table.js';
import { boundedJson } from './bounded-json.js';
import { truncate } from './sanitize.js';
import { plural } from '../protocol/plural.js';

/** Turns a frame's params (request, notification) or result (response) into words; undefined: no summary fits it. */
type Summarize = (body: unknown, max: number) => string | undefined;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A name cut short still says something from this many characters; shorter, it is left out. */
const minName = 6;

/**
 * "3 tools: a, b, c", cut to `max` with a count of the names left out ("7 tools: a, b +5 more"). The
 * names are shown while they fit; when not even the first fits whole, it is shown cut ("…") after
 * the count, with all the room there is, so a narrow terminal still reads a name, not a count alone,
 * and a wider one never reads less of it.
 */
function namedList(items: unknown, noun: string, nameOf: (item: unknown) => string | undefined, max: number): string | undefined {
  if (!Array.isArray(items)) return undefined;
  let line = plural(items.length, noun);
  if (items.length === 0) return line;
  line += ':';
  for (let index = 0; index < items.length; index++) {
    const name = nameOf(items[index]) ?? '?';
    const rest = items.length - index;
    // Leave room to say how many were left out.
    const more = rest > 1 ? ` +${rest - 1} more`.length : 0;
    const room = max - line.length - (index === 0 ? 1 : 2) - more;
    if (name.length <= room) {
      line += `${index === 0 ? ' ' : ', '}${name}`;
      continue;
    }
    if (index > 0) return `${line} +${rest} more`;
    // The first name does not fit whole: it is cut, alone after the count of all, which already says
    // how many there are ("+6 more" beside "7 resources" would take the name's room and say nothing).
    const alone = max - line.length - 1;
    return alone < minName ? line.slice(0, -1) : `${line} ${truncate(name, alone - 1)}`;
  }
  return line;
}

const field = (key: string) => (item: unknown) => (isObject(item) ? text(item[key]) : undefined);

/** "name 1.2.3 rev=… caps=tools,prompts": what an initialize says about a peer. */
function peer(role: string, info: unknown, revision: unknown, capabilities: unknown): string {
  const parts: string[] = [];
  if (isObject(info)) parts.push(`${role}=${text(info.name) ?? '?'}${typeof info.version === 'string' ? ` ${info.version}` : ''}`);
  if (typeof revision === 'string') parts.push(`rev=${revision}`);
  if (isObject(capabilities)) parts.push(`caps=${Object.keys(capabilities).join(',') || 'none'}`);
  return parts.join(' ');
}

/** A tool result's content: its texts quoted, other items named by type. */
function content(items: unknown, max: number): string | undefined {
  if (!Array.isArray(items)) return undefined;
  const shown = items.map((item) => {
    if (!isObject(item)) return '?';
    if (typeof item.text === 'string') return boundedJson(item.text, max);
    const what = text(item.mimeType) ?? text(item.uri) ?? (isObject(item.resource) ? text(item.resource.uri) : undefined);
    return `<${text(item.type) ?? '?'}${what ? ` ${what}` : ''}>`;
  });
  return shown.join(' ');
}

function toolResult(result: unknown, max: number): string | undefined {
  if (!isObject(result)) return undefined;
  if (Array.isArray(result.content) && result.content.length > 0) return content(result.content, max);
  return 'structuredContent' in result ? boundedJson(result.structuredContent, max) : undefined;
}

function resourceContents(result: unknown, max: number): string | undefined {
  if (!isObject(result)) return undefined;
  return namedList(
    result.contents,
    'content',
    (item) => {
      if (!isObject(item)) return undefined;
      const size = typeof item.text === 'string' ? `${item.text.length} chars` : typeof item.blob === 'string' ? `${item.blob.length} base64 chars` : '';
      return [text(item.uri), text(item.mimeType), size].filter(Boolean).join(' ');
    },
    max,
  );
}

function promptMessages(result: unknown, max: number): string | undefined {
  if (!isObject(result) || !Array.isArray(result.messages)) return undefined;
  const first = result.messages[0];
  const said = isObject(first) && isObject(first.content) ? text(first.content.text) : undefined;
  const head = plural(result.messages.length, 'message');
  return said === undefined ? head : `${head}, first ${text(isObject(first) ? first.role : undefined) ?? '?'}: ${boundedJson(said, max)}`;
}

function progress(params: unknown): string | undefined {
  if (!isObject(params) || typeof params.progress !== 'number') return undefined;
  const total = typeof params.total === 'number' ? `/${params.total}` : '';
  return `${params.progress}${total}${typeof params.message === 'string' ? ` ${JSON.stringify(params.message)}` : ''}`;
}

function logMessage(params: unknown, max: number): string | undefined {
  if (!isObject(params)) return undefined;
  const data = typeof params.data === 'string' ? params.data : boundedJson(params.data, max);
  return `${text(params.level) ?? '?'}${typeof params.logger === 'string' ? ` ${params.logger}` : ''}: ${data}`;
}

const listOf =
  (key: string, noun: string, name: string): Summarize =>
  (body, max) =>
    isObject(body) ? namedList(body[key], noun, field(name), max) : undefined;

/**
 * What matters in a frame of each method, by the side it comes from: a request's (or notification's)
 * params, a response's result. Methods not here are shown as the start of their JSON.
 */
const summaries = {
  initialize: {
    // The revision a client asks for is on the line already (rev=); the one the server agrees to is not.
    request: (p) => (isObject(p) ? peer('client', p.clientInfo, undefined, p.capabilities) : undefined),
    response: (r) => (isObject(r) ? peer('server', r.serverInfo, r.protocolVersion, r.capabilities) : undefined),
  },
  'tools/list': { response: listOf('tools', 'tool', 'name') },
  'tools/call': { response: toolResult },
  'resources/list': { response: listOf('resources', 'resource', 'uri') },
  'resources/templates/list': { response: listOf('resourceTemplates', 'template', 'uriTemplate') },
  'resources/read': { response: resourceContents },
  'prompts/list': { response: listOf('prompts', 'prompt', 'name') },
  'prompts/get': { response: promptMessages },
  'notifications/progress': { request: progress },
  'notifications/message': { request: logMessage },
} satisfies Record<string, { request?: Summarize; response?: Summarize }>;

/** A 2026-07-28 result that asks the client for input first: what it asks, by key, and the state it holds. */
function inputRequired(result: JsonObject, max: number): string {
  const requests = isObject(result.inputRequests) ? Object.entries(result.inputRequests) : [];
  const asked = requests.map(([key, request]) => {
    const message = isObject(request) && isObject(request.params) ? text(request.params.message) : undefined;
    return `${key} (${isObject(request) ? (text(request.method) ?? '?') : '?'}${message === undefined ? '' : ` ${boundedJson(message, max)}`})`;
  });
  const state = typeof result.requestState === 'string' ? ` requestState ${boundedJson(result.requestState, 40)}` : '';
  return `input required: ${asked.join(', ') || 'none'}${state}`;
}

/** The summary of a frame's body for its method and side, or undefined when there is none. */
export function summarize(method: unknown, side: 'request' | 'response', body: unknown, max: number): string | undefined {
  if (typeof method !== 'string') return undefined;
  if (side === 'response' && isObject(body) && body.resultType === 'input_required') return inputRequired(body, max);
  const sides = lookup<{ request?: Summarize; response?: Summarize }>(summaries, method);
  return sides?.[side]?.(body, max);
}
