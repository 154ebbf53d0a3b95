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
export class RecentIds<K> {
  private readonly ring: K[];
  /** Built once the ring outgrows a few keys; until then the ring is searched. */
  private known: Set<K> | undefined;
  private next = 0;

  /** Starts with `first` remembered. */
  constructor(
    private readonly capacity: number,
    first: K,
  ) {
    this.ring = [first];
  }

  has(key: K): boolean {
    return this.known ? this.known.has(key) : this.ring.includes(key);
  }

  remember(key: K) {
    if (this.has(key)) return;
    const { ring, capacity } = this;
    if (ring.length < capacity) ring.push(key);
    else {
      this.known?.delete(ring[this.next]!);
      ring[this.next] = key;
      this.next = (this.next + 1) % capacity;
    }
    if (this.known) this.known.add(key);
    else if (ring.length > smallRing) this.known = new Set(ring.filter(isKey));
  }

  /** Forgets `key` now (its slot in the ring is freed when the ring comes round to it). */
  forget(key: K): boolean {
    if (this.known) return this.known.delete(key);
    const at = this.ring.indexOf(key);
    if (at === -1) return false;
    // The slot stays, as in the Set's ring, and holds nothing findable: `undefined` is never a key.
    this.ring[at] = undefined as K;
    return true;
  }

  get size(): number {
    return this.known ? this.known.size : this.ring.filter(isKey).length;
  }
}
