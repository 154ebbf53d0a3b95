import { methodsByRevision } from '../protocol/methods.js';
import { sanitize, truncate } from '../render/sanitize.js';

/**
 * Metric attributes whose values the peers choose (a client names methods and tools, a server
 * error codes): each becomes a label, and each value a series of every instrument, kept in memory
 * and served on every scrape. 100,000 tool names from one client made each scrape 10-28 MB.
 */
const chosenByPeers = ['mcp.method.name', 'gen_ai.tool.name', 'gen_ai.prompt.name', 'error.type', 'rpc.response.status_code', 'mcp.protocol.version'] as const;

/** How many values not vouched for each such attribute keeps before the rest are `other`. */
export const unlistedValues = 20;
/**
 * How many names a server's lists vouch for, per attribute: a server chooses them too, and 1,000
 * listed tools made 1,023 series of each instrument (a 4.6 MB scrape). Servers list tens of tools.
 */
export const listedValues = 200;
/** The value every value past that reads. */
export const otherValue = 'other';
/** How long a label value may be, in characters. */
const longestValue = 100;

/** The method names of every revision: always their own value. */
const knownMethods = new Set(Object.values(methodsByRevision).flatMap((families) => Object.values(families as Record<string, string[]>).flat()));

/** Attributes whose listed values (tools/list, prompts/list) are always their own value. */
export type ListedAttribute = 'gen_ai.tool.name' | 'gen_ai.prompt.name';

/**
 * Bounds the labels the peers choose: a value is made printable (controls and bidirectional
 * overrides as `\u` escapes: a label is read on terminals) and cut to 100 characters; a method the
 * protocol names, or a tool or prompt the server listed, is itself; of the others, the first 20 of
 * each attribute are themselves and the rest `other`.
 */
export function createLabelBound() {
  const listed = new Map<string, Set<string>>();
  const unlisted = new Map<string, Set<string>>();
  const vouched = (key: string, value: string) => (key === 'mcp.method.name' ? knownMethods.has(value) : listed.get(key)?.has(value) === true);
  const bound = (key: string, raw: string): string => {
    const value = truncate(sanitize(raw), longestValue);
    if (vouched(key, value)) return value;
    let seen = unlisted.get(key);
    if (!seen) unlisted.set(key, (seen = new Set()));
    if (seen.has(value)) return value;
    if (seen.size >= unlistedValues) return otherValue;
    seen.add(value);
    return value;
  };
  return {
    /** Names a server listed: labels of their own, the first 200 of them. */
    list(key: ListedAttribute, names: readonly string[]) {
      let known = listed.get(key);
      if (!known) listed.set(key, (known = new Set()));
      for (const name of names.slice(0, listedValues)) if (known.size < listedValues) known.add(truncate(sanitize(name), longestValue));
    },
    /** The attributes with the peers' values bounded; the others as they are. */
    apply<T extends Record<string, unknown>>(attributes: T): T {
      const out: Record<string, unknown> = { ...attributes };
      for (const key of chosenByPeers) {
        const value = out[key];
        if (typeof value === 'string') out[key] = bound(key, value);
      }
      return out as T;
    },
  };
}
