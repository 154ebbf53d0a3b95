/**
 * Names of the JSON-RPC and MCP error codes, for annotation and for the human log. -32000 to -32099
 * are JSON-RPC's implementation-defined server errors: each SDK gives them its own meaning (the
 * TypeScript SDK's "Connection closed" -32000 is many a server's "Bad Request", and the spy's own 403),
 * so they are named "Server error" as JSON-RPC names the range, except the codes MCP itself defines.
 */
export const errorCodeNames: Readonly<Record<number, string>> = {
  [-32700]: 'Parse error',
  [-32600]: 'Invalid Request',
  [-32601]: 'Method not found',
  [-32602]: 'Invalid params',
  [-32603]: 'Internal error',
  [-32002]: 'Resource not found',
  [-32042]: 'URL elicitation required',
  [-32020]: 'Header mismatch',
  [-32021]: 'Missing required client capability',
  [-32022]: 'Unsupported protocol version',
};

export function errorCodeName(code: unknown): string | undefined {
  if (typeof code !== 'number') return undefined;
  const known = errorCodeNames[code];
  if (known) return known;
  if (code >= -32099 && code <= -32000) return 'Server error';
  return undefined;
}
