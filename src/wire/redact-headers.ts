import { tableOf } from '../protocol/own-table.js';
import type { HeaderBag } from './mcp-headers.js';
import { redactedValue } from './redact-frame.js';
import { maskUrl, type Learn } from './http-bodies.js';

/** Headers whose values are secrets unless the user says otherwise. */
export const defaultRedactedHeaders = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie'] as const;

export { redactedValue };

export type HeaderRecord = Record<string, string | string[]>;

/**
 * Makes the function that copies headers into the record: the values of secret headers are
 * replaced there (and only there; the traffic keeps them), and so are the secrets in a redirect's
 * query (an authorization code in `Location`). `false` keeps every value.
 */
export function createHeaderRedactor(extra: string[], enabled: boolean, learn: Learn = () => {}): (headers: HeaderBag) => HeaderRecord {
  const names = new Set(enabled ? [...defaultRedactedHeaders, ...extra.map((name) => name.toLowerCase())] : []);
  const valueOf = (name: string, value: string) => {
    if (!names.has(name)) return enabled && name === 'location' ? maskUrl(value, learn) : value;
    // Learnt, so that the value is masked where a body echoes it; a credential's token on its own too.
    learn(value);
    learn(value.replace(/^\w+\s+/, ''));
    return redactedValue;
  };
  return (headers) => {
    const kept = Object.entries(headers).filter((pair): pair is [string, string | string[]] => pair[1] !== undefined);
    return tableOf(kept.map(([name, value]) => [name, Array.isArray(value) ? value.map((one) => valueOf(name, one)) : valueOf(name, value)]));
  };
}
