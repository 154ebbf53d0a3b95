/**
 * A list of log indexes in increasing order (the rows the stream shows): 4 bytes each, in a typed
 * array that doubles as it grows. Only appended to; a new list is made when the scope or filter changes.
 */
export class IndexList implements Iterable<number> {
  private items = new Int32Array(1024);
  length = 0;

  push(index: number): void {
    if (this.length === this.items.length) {
      const grown = new Int32Array(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    this.items[this.length++] = index;
  }

  at(position: number): number | undefined {
    return position >= 0 && position < this.length ? this.items[position] : undefined;
  }

  /** The position of the first index at or after `index` (the list is in order), or -1. */
  firstFrom(index: number): number {
    let low = 0;
    let high = this.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.items[middle]! < index) low = middle + 1;
      else high = middle;
    }
    return low === this.length ? -1 : low;
  }

  *[Symbol.iterator](): Iterator<number> {
    for (let position = 0; position < this.length; position++) yield this.items[position]!;
  }

  toArray(): number[] {
    return Array.from(this.items.subarray(0, this.length));
  }
}
