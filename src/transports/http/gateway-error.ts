/** The id of the request in a body, when it has one a response can echo. */
function requestIdOf(body: Buffer): string | number | null {
  try {
    const message: unknown = JSON.parse(body.toString('utf8'));
    const single = Array.isArray(message) ? message[0] : message;
    const id = typeof single === 'object' && single !== null ? (single as { id?: unknown }).id : undefined;
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

/** The body of an answer the spy gives itself: a JSON-RPC error the client's SDK can show, saying why. */
export function spyErrorBody(requestBody: Buffer, code: number, message: string): Buffer {
  return Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: requestIdOf(requestBody), error: { code, message } }));
}

/** The body of the spy's 502. */
export function gatewayError(requestBody: Buffer, message: string): Buffer {
  return spyErrorBody(requestBody, -32603, `Bad Gateway: mcp-spy ${message}`);
}
