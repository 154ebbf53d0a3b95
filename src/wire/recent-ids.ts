/**
 * The last `capacity` keys remembered, in a ring: remembering one more forgets the oldest. A ring,
 * not a Set trimmed from its front: V8 walks past every deleted entry to find a Set's first one.
 * The ring grows as keys come: a correlator is made for every stateless HTTP exchange, which
 * remembers one or two ids, and a ring allocated whole would cost 80 KB each.
 */
export function createRecentIds(capacity: number) {
  const ring: string[] = [];
  const known = new Set<string>();
  let next = 0;
  return {
    has: (key: string) => known.has(key),
    remember(key: string) {
      if (known.has(key)) return;
      if (ring.length < capacity) ring.push(key);
      else {
        known.delete(ring[next]!);
        ring[next] = key;
        next = (next + 1) % capacity;
      }
      known.add(key);
    },
    /** Forgets `key` now (its slot in the ring is freed when the ring comes round to it). */
    forget: (key: string) => known.delete(key),
    get size() {
      return known.size;
    },
  };
}

export type RecentIds = ReturnType<typeof createRecentIds>;
