import type { HeaderBag } from './mcp-headers.js';
import { redactedValue } from '../redact/redact-frame.js';
import { maskUrl, type Learn } from './http-bodies.js';

/** Headers whose values are secrets unless the user says otherwise. */
export const defaultRedactedHeaders = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
  'x-auth-token',
  'x-access-token',
] as const;

export { redactedValue };

export type HeaderRecord = Record<string, string | string[]>;

/**
 * Copies headers into the record with the values of secret headers replaced (there only; the
 * traffic keeps them), and the secrets in a redirect's query (an authorization code in
 * `Location`). `learn` hears the secrets a copy would mask, at once: a body may echo them before
 * the copy is made, which is only when the record shows the headers.
 */
export interface HeaderRedactor {
  learn(headers: HeaderBag): void;
  copy(headers: HeaderBag): HeaderRecord;
}

/** The header redactor of a spy run; `enabled` false keeps every value (and learns nothing). */
export function createHeaderRedactor(extra: string[], enabled: boolean, learn: Learn = () => {}): HeaderRedactor {
  const names = new Set(enabled ? [...defaultRedactedHeaders, ...extra.map((name) => name.toLowerCase())] : []);
  const maskedValue = (name: string, value: string) => {
    if (!names.has(name)) return enabled && name === 'location' ? maskUrl(value, learn) : value;
    // Learnt, so that the value is masked where a body echoes it; a credential's token on its own too.
    learn(value);
    learn(value.replace(/^\w+\s+/, ''));
    return redactedValue;
  };
  const masked = [...names, 'location'];
  const masks = (name: string) => names.has(name) || name === 'location';
  return {
    learn(headers) {
      // Most header sets hold none of the few names that are masked.
      if (!enabled || !masked.some((name) => headers[name] !== undefined)) return;
      // In the order a copy would meet them: the secrets' order is the order they are masked in.
      for (const name in headers) {
        const value = headers[name];
        if (value === undefined || !Object.hasOwn(headers, name) || !masks(name)) continue;
        if (Array.isArray(value)) for (const one of value) maskedValue(name, one);
        else maskedValue(name, value);
      }
    },
    copy(headers) {
      // No prototype: a header named __proto__ is just data.
      const copy = Object.create(null) as HeaderRecord;
      for (const name of Object.keys(headers)) {
        const value = headers[name];
        if (value !== undefined) copy[name] = Array.isArray(value) ? value.map((one) => maskedValue(name, one)) : maskedValue(name, value);
      }
      return copy;
    },
  };
}
