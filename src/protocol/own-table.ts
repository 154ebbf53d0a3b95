// Names from outside (methods, tools, ids, sessions, kinds, notes, header names) are data: a method
// called `constructor` or `__proto__` must find nothing in a table, not what every object inherits.

/** The entry of a fixed table for a key read from outside: own entries only. */
export function lookup<T>(table: Readonly<Record<string, T>>, key: unknown): T | undefined {
  return (typeof key === 'string' || typeof key === 'number') && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** A table keyed by names from outside, built from entries: no prototype, so every key is just data. */
export function tableOf<T>(entries: Iterable<readonly [string, T]>): Record<string, T> {
  const table = Object.create(null) as Record<string, T>;
  for (const [key, value] of entries) table[key] = value;
  return table;
}

/**
 * A deep copy of parsed JSON whose objects have no prototype, for code that asks `key in object`
 * (structural diffs): a key such as `toString` is there only when the data has it.
 */
export function withoutPrototypes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPrototypes);
  if (typeof value !== 'object' || value === null) return value;
  return tableOf(Object.entries(value).map(([key, child]) => [key, withoutPrototypes(child)] as const));
}
