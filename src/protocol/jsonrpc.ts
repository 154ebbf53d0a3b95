/** A JSON-RPC 2.0 request or notification id, as the spec allows it (null is read, then flagged). */
export type JsonRpcId = string | number | null;

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isValidId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || typeof value === 'number' || value === null;
}

/** A stable map key for an id: 1 and "1" are different ids. */
export function idKey(id: JsonRpcId): string {
  return `${typeof id}:${String(id)}`;
}

/** Reads a nested property without throwing on peer data of the wrong shape. */
export function pick(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

export function pickString(value: unknown, ...path: string[]): string | undefined {
  const found = pick(value, ...path);
  return typeof found === 'string' ? found : undefined;
}
