import { noteTexts } from '../protocol/notes.js';
import { isObject, pick, pickString } from '../protocol/jsonrpc.js';
import { metaKeys } from '../protocol/revisions.js';
import { meta2026, recordLine } from './examples.js';
import { nameParamOf } from '../wire/http/mcp-headers.js';
import { decodeHeaderValue, paramHeaderMismatches, paramHeadersOf } from '../wire/correlate/param-headers.js';
import type { RuleFamily } from './types.js';

function httpExample(headerName: string): string {
  const request = { id: 1, method: 'tools/call', params: { name: 'search', arguments: { q: 'mcp' }, _meta: meta2026 } };
  const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': headerName };
  return [
    recordLine(1, { dir: 'c2s', kind: 'request', method: 'tools/call', tool: 'search', id: 1, rev: '2026-07-28', headers }, request),
    recordLine(
      2,
      {
        dir: 's2c',
        kind: 'response',
        method: 'tools/call',
        tool: 'search',
        id: 1,
        rev: '2026-07-28',
        related: { seq: 1, id: 1, method: 'tools/call', tool: 'search' },
      },
      {
        id: 1,
        result: { content: [{ type: 'text', text: 'found' }], resultType: 'complete' },
      },
    ),
  ].join('\n');
}

function lowerKeys(headers: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), Array.isArray(value) ? value.join(', ') : value]));
}

/** HTTP: the MCP headers the spy saw on a request must say what its body says. */
export const httpRules: RuleFamily = {
  rules: [
    {
      id: 'header-mismatch',
      severity: 'warn',
      summary: `${noteTexts['header-mismatch']} (Mcp-Method, Mcp-Name, MCP-Protocol-Version, and the Mcp-Param-* headers of a tool's x-mcp-header arguments), or before 2026-07-28 MCP-Protocol-Version differs from the revision initialize agreed on`,
      bad: httpExample('fetch'),
      good: httpExample('search'),
    },
  ],
  frame({ entry, message, state, report }) {
    if (entry.dir === 's2c' && entry.method === 'initialize') state.negotiated = pickString(message, 'result', 'protocolVersion') ?? state.negotiated;
    if (entry.dir !== 'c2s' || !isObject(entry.headers) || !isObject(message)) return;
    const headers = lowerKeys(entry.headers);
    const method = pickString(message, 'method');
    const checks: [string, unknown, string | undefined, string][] = [['Mcp-Method', headers['mcp-method'], method, 'the body says']];
    const nameParam = nameParamOf(method);
    const mcpName = headers['mcp-name'];
    if (nameParam)
      checks.push(['Mcp-Name', typeof mcpName === 'string' ? decodeHeaderValue(mcpName) : mcpName, pickString(message, 'params', nameParam), 'the body says']);
    const metaVersion = pickString(message, 'params', '_meta', metaKeys.protocolVersion);
    if (metaVersion) checks.push(['MCP-Protocol-Version', headers['mcp-protocol-version'], metaVersion, 'the body says']);
    // Before 2026 the header repeats the revision initialize agreed on, on every request after it.
    else checks.push(['MCP-Protocol-Version', headers['mcp-protocol-version'], state.negotiated, 'the session negotiated']);
    for (const [name, header, expected, source] of checks) {
      if (header === undefined || expected === undefined || header === expected) continue;
      report('header-mismatch', `${name}: ${JSON.stringify(header)} but ${source} ${JSON.stringify(expected)}`);
    }
    // Mcp-Param-*: the arguments a tool's inputSchema marks with x-mcp-header, as its tools/list gave it.
    const tool =
      method === 'tools/call' && typeof entry.tool === 'string' ? (state.facts.tools.get(entry.tool) ?? state.serverTools?.get(entry.tool)) : undefined;
    if (tool)
      for (const mismatch of paramHeaderMismatches(headers, paramHeadersOf(tool.inputSchema), pick(message, 'params', 'arguments')))
        report('header-mismatch', mismatch);
  },
};
