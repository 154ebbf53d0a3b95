import type { JsonRpcId } from '../../protocol/jsonrpc.js';
import { parseCut } from '../../protocol/depth.js';

/**
 * The JSON-RPC envelope read from the kept start of a frame larger than --max-frame: enough to
 * classify and correlate it. `message` holds only what was found (`result`/`params` reduced to the
 * few keys read), and `unread` names what the classification needed but the kept part did not hold.
 */
export interface ScannedEnvelope {
  message?: { jsonrpc: unknown; id?: JsonRpcId; method?: unknown; result?: object; error?: object; params?: object };
  unread: string[];
}

// Keys whose value is read (primitives only), and objects whose own keys of interest are read:
// params.name names a tool or prompt, error.code/message say what failed, result.isError a tool error.
// Once the envelope is known and a nested object has given what it usually gives, the rest of the
// frame is not walked: megabytes of small values would cost the observer a third of a second.
interface Nested {
  keys: Set<string>;
  settled: (found: Record<string, unknown>) => boolean;
}
const topValues = new Set(['jsonrpc', 'id', 'method']);
const nestedValues = new Map<string, Nested>([
  ['params', { keys: new Set(['name', 'uri']), settled: (found) => 'name' in found || 'uri' in found }],
  ['error', { keys: new Set(['code', 'message']), settled: (found) => 'code' in found && 'message' in found }],
  // isError comes after a tool's content, which is what made the frame large: rarely in reach.
  ['result', { keys: new Set(['isError']), settled: () => true }],
]);

const blank = /[ \t\r\n]*/y;
const primitive = /-?[0-9][0-9.eE+-]*|true|false|null/y;
const structural = /["{}[\]]/g;

function skipBlank(text: string, at: number): number {
  blank.lastIndex = at;
  blank.test(text);
  return blank.lastIndex;
}

/** Index just past the string opening at `at`, or -1 when the text ends inside it. */
function stringEnd(text: string, at: number): number {
  for (let from = at + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return -1;
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** Index just past the value at `at`, without building it; -1 when the text ends (or breaks) inside it. */
function valueEnd(text: string, at: number): number {
  const first = text[at];
  if (first === '"') return stringEnd(text, at);
  if (first !== '{' && first !== '[') {
    primitive.lastIndex = at;
    // A number cut at the end of the kept part might have gone on.
    return primitive.test(text) && primitive.lastIndex < text.length ? primitive.lastIndex : -1;
  }
  let depth = 0;
  for (structural.lastIndex = at; ; ) {
    const found = structural.exec(text);
    if (!found) return -1;
    if (found[0] === '"') {
      const end = stringEnd(text, found.index);
      if (end === -1) return -1;
      structural.lastIndex = end;
    } else if (found[0] === '{' || found[0] === '[') depth++;
    else if (--depth === 0) return found.index + 1;
  }
}

function parsed(text: string, from: number, to: number): { value?: unknown } {
  try {
    return { value: parseCut(text.slice(from, to)).value };
  } catch {
    return {};
  }
}

/**
 * Walks the members of the object opening at `at`, calling `member` with each key and where its
 * value starts; `member` returns where the value ends (-1: the text ends inside it). Returns the
 * index past the object, or -1 when the text ends (or stops being JSON) first.
 */
function walkObject(text: string, at: number, member: (key: string, valueAt: number) => number): number {
  let index = skipBlank(text, at + 1);
  if (text[index] === '}') return index + 1;
  for (;;) {
    if (text[index] !== '"') return -1;
    const keyEnd = stringEnd(text, index);
    if (keyEnd === -1) return -1;
    const key = parsed(text, index, keyEnd).value;
    index = skipBlank(text, keyEnd);
    if (text[index] !== ':' || typeof key !== 'string') return -1;
    const end = member(key, skipBlank(text, index + 1));
    if (end === -1) return -1;
    index = skipBlank(text, end);
    if (text[index] === '}') return index + 1;
    if (text[index] !== ',') return -1;
    index = skipBlank(text, index + 1);
  }
}

/** Reads the keys of interest of a nested object; its other values are skipped unread, or not at all once `done`. */
function readNested(text: string, at: number, wanted: Nested, into: Record<string, unknown>, done: () => boolean): number {
  if (text[at] !== '{') return valueEnd(text, at);
  return walkObject(text, at, (key, valueAt) => {
    if (!wanted.keys.has(key) && done() && wanted.settled(into)) return -1;
    const end = valueEnd(text, valueAt);
    if (end !== -1 && wanted.keys.has(key) && text[valueAt] !== '{' && text[valueAt] !== '[') {
      const { value } = parsed(text, valueAt, end);
      if (value !== undefined) into[key] = value;
    }
    return end;
  });
}

/** Scans the kept start of a JSON-RPC frame for its envelope. Never throws; reads each byte at most once. */
export function scanEnvelope(text: string): ScannedEnvelope {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const start = skipBlank(body, 0);
  if (body[start] !== '{') return { unread: [] };
  const top: Record<string, unknown> = Object.create(null);
  const nested = new Map<string, Record<string, unknown>>();
  walkObject(body, start, (key, valueAt) => {
    const wanted = nestedValues.get(key);
    if (wanted) {
      const into: Record<string, unknown> = {};
      nested.set(key, into);
      return readNested(body, valueAt, wanted, into, () => 'jsonrpc' in top && 'id' in top);
    }
    const end = valueEnd(body, valueAt);
    if (end !== -1 && topValues.has(key)) {
      const { value } = parsed(body, valueAt, end);
      if (value !== undefined) top[key] = value;
    }
    return end;
  });
  return envelopeOf(top, nested);
}

function envelopeOf(top: Record<string, unknown>, nested: Map<string, Record<string, unknown>>): ScannedEnvelope {
  const hasId = 'id' in top;
  const method = top.method;
  const answer = nested.has('result') || nested.has('error');
  const unread: string[] = [];
  if (!('jsonrpc' in top)) unread.push('jsonrpc');
  if (method === undefined && !answer) unread.push('method', 'result', 'error');
  // A request's id may sit after its huge params; a notification's method says it has none.
  const maybeRequest = typeof method === 'string' && !method.startsWith('notifications/');
  if (!hasId && (answer || maybeRequest)) unread.push('id');
  if (unread.some((key) => key !== 'jsonrpc')) return { unread };
  const message: NonNullable<ScannedEnvelope['message']> = { jsonrpc: 'jsonrpc' in top ? top.jsonrpc : '2.0' };
  if (hasId) message.id = top.id as JsonRpcId;
  if (method !== undefined) message.method = method;
  for (const [key, into] of nested) message[key as 'params' | 'result' | 'error'] = into;
  return { message, unread };
}
