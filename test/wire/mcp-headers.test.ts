import { describe, expect, it } from 'vitest';
import { headerMismatches, mcpHeadersOf } from '../../src/wire/http/mcp-headers.js';

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', _meta: meta } };

describe('headerMismatches', () => {
  it.each([
    ['all agree', { 'mcp-method': 'tools/call', 'mcp-name': 'add', 'mcp-protocol-version': '2026-07-28' }, call, []],
    ['absent headers are no disagreement', {}, call, []],
    ['another method', { 'mcp-method': 'tools/list' }, call, ['mcp-method "tools/list" but the method is "tools/call"']],
    ['another tool', { 'mcp-name': 'sub' }, call, ['mcp-name "sub" but the params.name is "add"']],
    [
      'another version',
      { 'mcp-protocol-version': '2025-11-25' },
      call,
      ['mcp-protocol-version "2025-11-25" but the protocol version in _meta is "2026-07-28"'],
    ],
    ['a resource URI', { 'mcp-name': 'a://x' }, { method: 'resources/read', params: { uri: 'a://y' } }, ['mcp-name "a://x" but the params.uri is "a://y"']],
    ['not an object', { 'mcp-method': 'x' }, 'text', []],
    ['a batch', { 'mcp-method': 'x' }, [call], []],
  ])('%s', (_name, headers, message, expected) => {
    expect(headerMismatches(headers, message)).toEqual(expected);
  });

  it('picks the MCP headers out of a header set', () => {
    expect(mcpHeadersOf({ 'mcp-session-id': 's', accept: '*/*', 'last-event-id': '9', 'mcp-name': ['a', 'b'] })).toEqual({
      'mcp-session-id': 's',
      'last-event-id': '9',
      'mcp-name': 'a, b',
    });
  });

  it('has no MCP headers to give for a header set without them', () => {
    expect(mcpHeadersOf({ accept: '*/*', 'content-type': 'application/json' })).toBeUndefined();
  });
});
