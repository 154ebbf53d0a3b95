/**
 * The last `capacity` keys remembered, in a ring: remembering one more forgets the oldest. A ring,
 * not a Set trimmed from its front: V8 walks past every deleted entry to find a Set's first one.
 */
export function createRecentIds(capacity: number) {
  const ring: (string | undefined)[] = new Array(capacity);
  const known = new Set<string>();
  let next = 0;
  return {
    has: (key: string) => known.has(key),
    remember(key: string) {
      if (known.has(key)) return;
      const oldest = ring[next];
      if (oldest !== undefined) known.delete(oldest);
      ring[next] = key;
      known.add(key);
      next = (next + 1) % capacity;
    },
    /** Forgets `key` now (its slot in the ring is freed when the ring comes round to it). */
    forget: (key: string) => known.delete(key),
    get size() {
      return known.size;
    },
  };
}

export type RecentIds = ReturnType<typeof createRecentIds>;
