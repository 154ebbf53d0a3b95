/** Up to this many keys are looked up along the ring itself; past it, a Set is built beside it. */
const smallRing = 8;

const isKey = (key: unknown) => key !== undefined;

/**
 * The last `capacity` keys remembered, in a ring: remembering one more forgets the oldest. A ring,
 * not a Set trimmed from its front: V8 walks past every deleted entry to find a Set's first one.
 * The ring grows as keys come, and a Set joins it only past a few keys: a correlator is made for
 * every stateless HTTP exchange, which remembers one or two ids, and a ring allocated whole would
 * cost 80 KB each. Keys are compared as a Set compares them (an id 1 is not the id "1").
 */
export function createRecentIds<K>(capacity: number) {
  const ring: K[] = [];
  /** Built once the ring outgrows a few keys; until then the ring is searched. */
  let known: Set<K> | undefined;
  let next = 0;
  const has = (key: K) => (known ? known.has(key) : ring.includes(key));
  return {
    has,
    remember(key: K) {
      if (has(key)) return;
      if (ring.length < capacity) ring.push(key);
      else {
        known?.delete(ring[next]!);
        ring[next] = key;
        next = (next + 1) % capacity;
      }
      if (known) known.add(key);
      else if (ring.length > smallRing) known = new Set(ring.filter(isKey));
    },
    /** Forgets `key` now (its slot in the ring is freed when the ring comes round to it). */
    forget(key: K) {
      if (known) return known.delete(key);
      const at = ring.indexOf(key);
      if (at === -1) return false;
      // The slot stays, as in the Set's ring, and holds nothing findable: `undefined` is never a key.
      ring[at] = undefined as K;
      return true;
    },
    get size() {
      return known ? known.size : ring.filter(isKey).length;
    },
  };
}

export type RecentIds<K = string> = ReturnType<typeof createRecentIds<K>>;
