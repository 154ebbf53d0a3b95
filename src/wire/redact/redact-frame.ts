import { JSONPath } from 'jsonpath-plus';
import { normalizeJsonPath } from './json-path.js';
import { placePath, replaceAt, secretPlaces, type Place } from './secret-names.js';

/** What a masked value reads in the record and the logs. */
export const redactedValue = '[redacted]';

/**
 * Values shorter than this are masked where a path selects them, but not hunted elsewhere: masking
 * every "1" or "yes" in a record would destroy it, and a real key or token is longer.
 */
const shortestSecret = 8;

/** A frame after masking: the message to record, and where in it something was masked. */
export interface Redaction {
  message: unknown;
  paths: string[];
}

interface Located {
  parent: unknown;
  parentProperty: string | number;
  path: string;
  value: unknown;
}

/**
 * The secrets of one spy run: values the user's paths selected, and secrets the spy met elsewhere
 * (an OAuth token response). Once known, a secret is masked wherever it turns up later.
 */
export function createSecrets() {
  const values = new Set<string>();
  const learn = (value: unknown) => {
    if (typeof value === 'string') {
      if (value.length >= shortestSecret && value !== redactedValue) values.add(value);
    } else if (typeof value === 'object' && value !== null) {
      for (const child of Object.values(value)) learn(child);
    }
  };
  return {
    get size() {
      return values.size;
    },
    /** Learns the string leaves of a masked value. */
    learn,
    /** Whether text (a frame's bytes as text) may hold a known secret, plain or as JSON escapes it. */
    mayHold(text: string): boolean {
      for (const value of values) if (text.includes(value) || text.includes(JSON.stringify(value).slice(1, -1))) return true;
      return false;
    },
    /** The text with every known secret masked; the same string when there was none. */
    scrub(text: string): string {
      let out = text;
      for (const value of values) if (out.includes(value)) out = out.split(value).join(redactedValue);
      return out;
    },
  };
}

export type Secrets = ReturnType<typeof createSecrets>;

/** Masks, in a copy, the strings that hold a known secret; records where, in JSONPath's own notation. */
function scrubStrings(value: unknown, path: string, secrets: Secrets, found: string[]): unknown {
  if (typeof value === 'string') {
    const scrubbed = secrets.scrub(value);
    if (scrubbed !== value) found.push(path);
    return scrubbed;
  }
  if (Array.isArray(value)) return value.map((child, index) => scrubStrings(child, `${path}[${index}]`, secrets, found));
  if (typeof value !== 'object' || value === null) return value;
  // No prototype: a key named __proto__ is just data.
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [key, child] of Object.entries(value)) copy[key] = scrubStrings(child, `${path}['${key}']`, secrets, found);
  return copy;
}

/** The value at a place of a message. */
const valueAt = (message: unknown, place: Place) => place.reduce<unknown>((item, key) => (item as Record<string | number, unknown>)[key], message);

/**
 * Masks one JSON-RPC message before it is recorded: members with a secret's name (unless `names` is
 * false), what the user's paths select (each learnt as a secret), then any known secret elsewhere.
 * Undefined when nothing was masked (the usual case, no copy).
 */
export function redactMessage(message: unknown, raw: string, paths: readonly string[], secrets: Secrets, names = false): Redaction | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const found: string[] = [];
  let copy: unknown = message;
  const places = names ? secretPlaces(message, raw).filter((place) => valueAt(message, place) !== redactedValue) : [];
  if (places.length > 0) {
    for (const place of places) {
      secrets.learn(valueAt(message, place));
      found.push(placePath(place));
    }
    copy = replaceAt(message, places, redactedValue);
  }
  const selects = (path: string, json: unknown) =>
    JSONPath({ path: normalizeJsonPath(path), json: json as object, resultType: 'all', wrap: true }) as Located[];
  // Copied only when a path selects something: most frames match nothing.
  if (paths.some((path) => selects(path, copy).length > 0)) {
    copy = structuredClone(copy);
    for (const path of paths) {
      for (const { parent, parentProperty, path: where, value } of selects(path, copy)) {
        if (value === redactedValue || typeof parent !== 'object' || parent === null) continue;
        secrets.learn(value);
        (parent as Record<string | number, unknown>)[parentProperty] = redactedValue;
        found.push(where);
      }
    }
  }
  if (secrets.size > 0 && secrets.mayHold(raw)) copy = scrubStrings(copy, '$', secrets, found);
  return found.length > 0 ? { message: copy, paths: found } : undefined;
}
