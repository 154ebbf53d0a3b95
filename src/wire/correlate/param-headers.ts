import { isObject } from '../../protocol/jsonrpc.js';

/** Where a tool's `inputSchema` puts an argument in an `Mcp-Param-{Name}` header (2026-07-28, `x-mcp-header`). */
export interface ParamHeader {
  /** The argument's path under `arguments`, through `properties` only. */
  path: string[];
  /** The header's name as declared, without the `Mcp-Param-` prefix. */
  name: string;
}

/** The `x-mcp-header` declarations of a tool's inputSchema, on properties reached through `properties` alone (the spec allows no other place). */
export function paramHeadersOf(inputSchema: unknown): ParamHeader[] {
  const found: ParamHeader[] = [];
  const visit = (schema: unknown, path: string[]) => {
    if (!isObject(schema)) return;
    const name = schema['x-mcp-header'];
    if (path.length > 0 && typeof name === 'string' && name !== '') found.push({ path, name });
    if (isObject(schema.properties)) for (const [key, child] of Object.entries(schema.properties)) visit(child, [...path, key]);
  };
  visit(inputSchema, []);
  return found;
}

const base64Form = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

/** A header value as the client meant it: the `=?base64?...?=` form (non-ASCII, edge spaces) decoded from UTF-8. */
export function decodeHeaderValue(value: string): string {
  const encoded = base64Form.exec(value)?.[1];
  return encoded === undefined ? value : Buffer.from(encoded, 'base64').toString('utf8');
}

/** An argument as its header carries it: strings as they are, numbers in decimal, booleans as true/false; anything else has no header. */
function headerFormOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function argumentAt(args: unknown, path: string[]): unknown {
  let node = args;
  for (const key of path) node = isObject(node) ? node[key] : undefined;
  return node;
}

/**
 * Where a tools/call's `Mcp-Param-*` headers disagree with its arguments, given what the tool's
 * inputSchema declares (`paramHeadersOf`): a header whose value differs, one missing for an argument given, one sent for an
 * argument absent or null. `headers` are lower-cased names; one line for each disagreement.
 */
export function paramHeaderMismatches(headers: Record<string, unknown>, declared: ParamHeader[], args: unknown): string[] {
  const found: string[] = [];
  for (const { path, name } of declared) {
    const header = `Mcp-Param-${name}`;
    const given = headers[header.toLowerCase()];
    const sent = Array.isArray(given) ? given.join(', ') : given;
    const value = headerFormOf(argumentAt(args, path));
    const where = `arguments.${path.join('.')}`;
    if (typeof sent !== 'string') {
      if (value !== undefined) found.push(`${header}: absent but ${where} is ${JSON.stringify(value)}`);
      continue;
    }
    const meant = decodeHeaderValue(sent);
    if (value === undefined) found.push(`${header}: ${JSON.stringify(meant)} but ${where} is not given`);
    else if (meant !== value) found.push(`${header}: ${JSON.stringify(meant)} but ${where} is ${JSON.stringify(value)}`);
  }
  return found;
}
