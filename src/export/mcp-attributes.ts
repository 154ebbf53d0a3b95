import { isStatelessRevision } from '../protocol/revisions.js';
import type { FrameEntry, RecordEntry } from '../record/schema.js';

/** Span and metric attribute values as OpenTelemetry takes them. */
export type Attributes = Record<string, string | number | boolean>;

/** Where a session ran: the transport, and for HTTP the server behind the spy. */
export interface SessionPlace {
  transport: 'stdio' | 'http';
  /** The HTTP target's host and port (server.address, server.port). */
  server?: { address: string; port: number };
}

/** An exchange of one stateless HTTP request (`x-<n>`, `sse-<n>`) is no MCP session. */
const exchangeSession = /^(?:x|sse)-\d+$/;

/**
 * The attributes of the OpenTelemetry MCP semantic conventions that a session shares: transport,
 * protocol, server. `network.transport` is `pipe` for stdio and `tcp` for HTTP.
 */
export function sessionAttributes(place: SessionPlace, rev: string | undefined): Attributes {
  const out: Attributes = { 'network.transport': place.transport === 'stdio' ? 'pipe' : 'tcp' };
  if (place.transport === 'http') {
    out['network.protocol.name'] = 'http';
    // The spy speaks HTTP/1.1 to both peers.
    out['network.protocol.version'] = '1.1';
  }
  if (rev !== undefined) out['mcp.protocol.version'] = rev;
  if (place.server) {
    out['server.address'] = place.server.address;
    out['server.port'] = place.server.port;
  }
  return out;
}

/** `mcp.session.id`: for revisions with sessions (before 2026-07-28), and not for a lone exchange. */
export function sessionIdOf(session: string | undefined, rev: string | undefined): string | undefined {
  if (session === undefined || isStatelessRevision(rev) || exchangeSession.test(session)) return undefined;
  return session;
}

/**
 * The attributes of one request, from its record entry: method, id (not when null), tool or
 * prompt, resource URI; `gen_ai.operation.name` is `execute_tool` for tools/call and set for nothing else.
 */
export function requestAttributes(entry: FrameEntry): Attributes {
  const out: Attributes = { 'mcp.method.name': entry.method ?? '' };
  if (typeof entry.id === 'string' || typeof entry.id === 'number') out['jsonrpc.request.id'] = String(entry.id);
  if (entry.method === 'tools/call' && entry.tool !== undefined) out['gen_ai.tool.name'] = entry.tool;
  if (entry.method === 'tools/call') out['gen_ai.operation.name'] = 'execute_tool';
  if (entry.method === 'prompts/get' && entry.prompt !== undefined) out['gen_ai.prompt.name'] = entry.prompt;
  if (entry.uri !== undefined) out['mcp.resource.uri'] = entry.uri;
  return out;
}

/** `{mcp.method.name} {target}`, the target a tool or prompt name; the method alone otherwise (never the URI). */
export function spanNameOf(entry: FrameEntry): string {
  const target = entry.method === 'tools/call' ? entry.tool : entry.method === 'prompts/get' ? entry.prompt : undefined;
  return target === undefined ? (entry.method ?? 'unknown') : `${entry.method} ${target}`;
}

/** How an operation ended, when it failed: `error.type` and the status description. */
export interface Failure {
  type: string;
  message?: string;
  /** `rpc.response.status_code`: the JSON-RPC error code. */
  code?: string;
}

/** A response's failure: the JSON-RPC code for a protocol error, `tool_error` for `isError: true`. */
export function failureOf(entry: RecordEntry, message: unknown): Failure | undefined {
  if (entry.kind === 'protocol-error') {
    const code = String(entry.error?.code ?? '_OTHER');
    const text = entry.error?.message;
    return typeof text === 'string' ? { type: code, code, message: text } : { type: code, code };
  }
  if (entry.kind === 'tool-error') {
    const text = toolErrorText(message);
    return text === undefined ? { type: 'tool_error' } : { type: 'tool_error', message: text };
  }
  return undefined;
}

/** The first text of a tool error's content: what the tool said went wrong. */
function toolErrorText(message: unknown): string | undefined {
  const content = (message as { result?: { content?: unknown } } | undefined)?.result?.content;
  if (!Array.isArray(content)) return undefined;
  const first = content.find((item) => typeof item === 'object' && item !== null && (item as { type?: unknown }).type === 'text');
  const text = (first as { text?: unknown } | undefined)?.text;
  return typeof text === 'string' ? text.slice(0, 1000) : undefined;
}

/** The attributes `mcp.client.operation.duration` may carry (the conventions' list; no ids, no session). */
export const operationMetricKeys = [
  'mcp.method.name',
  'error.type',
  'gen_ai.prompt.name',
  'gen_ai.tool.name',
  'rpc.response.status_code',
  'gen_ai.operation.name',
  'mcp.protocol.version',
  'network.protocol.name',
  'network.protocol.version',
  'network.transport',
  'server.address',
  'server.port',
] as const;

/** The attributes `mcp.server.operation.duration` may carry: the client's list but the server's address, which it does not list. */
export const serverOperationMetricKeys = operationMetricKeys.filter((key) => key !== 'server.address' && key !== 'server.port');

/** The attributes `mcp.client.session.duration` may carry. */
export const sessionMetricKeys = [
  'error.type',
  'mcp.protocol.version',
  'network.protocol.name',
  'network.protocol.version',
  'network.transport',
  'server.address',
  'server.port',
] as const;

/** Only the listed keys of a set of attributes. */
export function pick(attributes: Attributes, keys: readonly string[]): Attributes {
  const out: Attributes = {};
  for (const key of keys) if (attributes[key] !== undefined) out[key] = attributes[key]!;
  return out;
}
