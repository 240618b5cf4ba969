/** A growable list of 32-bit integers: compact storage for graph edges and ids. */
export class IntList {
  private items: Int32Array;
  length = 0;

  constructor(capacity = 1024) {
    this.items = new Int32Array(capacity);
  }

  push(value: number): void {
    if (this.length === this.items.length) {
      const grown = new Int32Array(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    this.items[this.length++] = value;
  }

  at(index: number): number {
    return this.items[index] ?? 0;
  }

  toArray(): Int32Array {
    return this.items.subarray(0, this.length);
  }
}
