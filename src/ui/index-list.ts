/** Indexes per block: the list grows a block at a time, never copied as it grows. */
const blockBits = 14;
const blockSize = 1 << blockBits;

/**
 * A list of log indexes in increasing order (the rows the stream shows): 4 bytes each, in blocks of
 * typed arrays (a list that doubled would hold twice what it needs, and both copies as it grows).
 * Only appended to; a new list is made when the scope or filter changes.
 */
export class IndexList implements Iterable<number> {
  private blocks: Int32Array[] = [];
  length = 0;

  push(index: number): void {
    if ((this.length & (blockSize - 1)) === 0) this.blocks.push(new Int32Array(this.blocks.length === 0 ? 1024 : blockSize));
    let block = this.blocks.at(-1)!;
    const at = this.length & (blockSize - 1);
    // (The first block starts small: most lists, a filter's, a session's, are short.)
    if (at === block.length) {
      const grown = new Int32Array(Math.min(blockSize, block.length * 2));
      grown.set(block);
      this.blocks[this.blocks.length - 1] = block = grown;
    }
    block[at] = index;
    this.length++;
  }

  private get(position: number): number {
    return this.blocks[position >>> blockBits]![position & (blockSize - 1)]!;
  }

  at(position: number): number | undefined {
    return position >= 0 && position < this.length ? this.get(position) : undefined;
  }

  /** The position of the first index at or after `index` (the list is in order), or -1. */
  firstFrom(index: number): number {
    let low = 0;
    let high = this.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.get(middle) < index) low = middle + 1;
      else high = middle;
    }
    return low === this.length ? -1 : low;
  }

  *[Symbol.iterator](): Iterator<number> {
    for (let position = 0; position < this.length; position++) yield this.get(position);
  }

  toArray(): number[] {
    return Array.from(this, (index) => index);
  }
}
