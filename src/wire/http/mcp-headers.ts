import { pick, pickString } from '../../protocol/jsonrpc.js';
import { lookup } from '../../protocol/own-table.js';
import { isStatelessRevision, metaKeys } from '../../protocol/revisions.js';
import { decodeHeaderValue, paramHeaderMismatches, type ParamHeader } from '../correlate/param-headers.js';

/** The HTTP headers MCP defines, lower-cased as Node gives them. */
export const mcpHeaderNames = ['mcp-session-id', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'last-event-id'] as const;

export type HeaderBag = Record<string, string | string[] | undefined>;

/** The first value of a header, when it was sent. */
export function headerValue(headers: HeaderBag | undefined, name: string): string | undefined {
  const value = headers?.[name];
  return Array.isArray(value) ? value[0] : value;
}

function single(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The MCP headers present in a header set, as text (the `Mcp-Param-*` ones of 2026-07-28 too); undefined when there is none. */
export function mcpHeadersOf(headers: HeaderBag): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  for (const name of mcpHeaderNames) {
    const value = single(headers, name);
    if (value !== undefined) (out ??= {})[name] = value;
  }
  for (const name of Object.keys(headers)) {
    const value = name.startsWith('mcp-param-') ? single(headers, name) : undefined;
    if (value !== undefined) (out ??= {})[name] = value;
  }
  return out;
}

/** What Mcp-Name must equal for a method (2026-07-28): the tool or prompt name, or the resource URI. */
const nameSources: Readonly<Record<string, string>> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

/** The param Mcp-Name carries for a method, when it has one. */
export function nameParamOf(method: unknown): string | undefined {
  return lookup(nameSources, method);
}

/**
 * Where the 2026-07-28 headers disagree with the body they travel with: one line for each, empty
 * when all agree. A header that is absent is not a disagreement here.
 */
export function headerMismatches(headers: HeaderBag, message: unknown): string[] {
  if (Array.isArray(message) || typeof message !== 'object' || message === null) return [];
  const found: string[] = [];
  const method = pickString(message, 'method');
  const params = pick(message, 'params');
  const compare = (header: string, body: string | undefined, what: string) => {
    const sent = single(headers, header);
    // Mcp-Name travels base64 when the name is not plain ASCII.
    const value = sent !== undefined && header === 'mcp-name' ? decodeHeaderValue(sent) : sent;
    if (value !== undefined && body !== undefined && value !== body) found.push(`${header} "${value}" but the ${what} is "${body}"`);
  };
  compare('mcp-method', method, 'method');
  const nameField = nameParamOf(method);
  if (nameField) compare('mcp-name', pickString(params, nameField), `params.${nameField}`);
  compare('mcp-protocol-version', pickString(params, '_meta', metaKeys.protocolVersion), 'protocol version in _meta');
  return found;
}

/**
 * Where a request's headers disagree with its body, or with the revision its session negotiated.
 * Before 2026-07-28 only the version header is checked, against what initialize agreed on.
 */
export function requestMismatches(
  headers: HeaderBag,
  body: Buffer,
  version: string | undefined,
  negotiated: string | undefined,
  paramHeaders?: (tool: string) => ParamHeader[] | undefined,
): string[] {
  const mismatches =
    version !== undefined && negotiated !== undefined && !isStatelessRevision(negotiated) && version !== negotiated
      ? [`mcp-protocol-version "${version}" but the session negotiated "${negotiated}"`]
      : [];
  if (isStatelessRevision(version) || 'mcp-method' in headers) {
    let message: unknown;
    try {
      message = JSON.parse(body.toString('utf8'));
    } catch {
      // Not JSON: the frame is recorded as invalid, and has no body to compare.
      return mismatches;
    }
    mismatches.push(...headerMismatches(headers, message));
    const tool = pickString(message, 'method') === 'tools/call' ? pickString(message, 'params', 'name') : undefined;
    const declared = tool === undefined ? undefined : paramHeaders?.(tool);
    if (declared) mismatches.push(...paramHeaderMismatches(headers, declared, pick(message, 'params', 'arguments')));
  }
  return mismatches;
}
