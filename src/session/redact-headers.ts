import { tableOf } from '../protocol/own-table.js';
import type { HeaderBag } from '../wire/mcp-headers.js';

/** Headers whose values are secrets unless the user says otherwise. */
export const defaultRedactedHeaders = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie'] as const;

export const redactedValue = '[redacted]';

export type HeaderRecord = Record<string, string | string[]>;

/**
 * Makes the function that copies headers into the record: the values of secret headers are
 * replaced there (and only there; the traffic keeps them). `false` keeps every value.
 */
export function createHeaderRedactor(extra: string[], enabled: boolean): (headers: HeaderBag) => HeaderRecord {
  const names = new Set(enabled ? [...defaultRedactedHeaders, ...extra.map((name) => name.toLowerCase())] : []);
  return (headers) => {
    const kept = Object.entries(headers).filter((pair): pair is [string, string | string[]] => pair[1] !== undefined);
    return tableOf(kept.map(([name, value]) => [name, !names.has(name) ? value : Array.isArray(value) ? value.map(() => redactedValue) : redactedValue]));
  };
}
