/**
 * Each target's reference count (its links) as the results writer takes the links in, and the
 * count its stored row already has. A target's row is written with the count of the moment; at the
 * end only the targets linked again since are updated. Counting the links again in the database
 * instead (an UPDATE with a count per target over every link row) rewrote every target's index
 * entries and was most of a big scan's Finalizing: 7 s of the writer's CPU, 15-27 s of its time on
 * a scan of 1.2 million links.
 */
export class ReferenceCounts {
  /** By target id (ids are 1, 2, 3 … in the order targets are met). */
  #counts: Uint32Array<ArrayBuffer> = new Uint32Array(1024);
  #stored: Uint32Array<ArrayBuffer> = new Uint32Array(1024);

  /** One more link to `targetId`. */
  add(targetId: number): void {
    if (targetId >= this.#counts.length) this.#grow(targetId);
    this.#counts[targetId]! += 1;
  }

  /** The count to write with the target's row now; it is then the stored one. */
  store(targetId: number): number {
    if (targetId >= this.#counts.length) this.#grow(targetId);
    const count = this.#counts[targetId]!;
    this.#stored[targetId] = count;
    return count;
  }

  /** The targets whose stored count is behind, with their count: [id, count] each. */
  changed(): Array<[number, number]> {
    const changed: Array<[number, number]> = [];
    for (let id = 0; id < this.#counts.length; id++) {
      const count = this.#counts[id]!;
      if (count !== this.#stored[id]) changed.push([id, count]);
    }
    return changed;
  }

  #grow(targetId: number): void {
    let size = this.#counts.length;
    while (size <= targetId) size *= 2;
    this.#counts = grown(this.#counts, size);
    this.#stored = grown(this.#stored, size);
  }
}

function grown(counts: Uint32Array, size: number): Uint32Array<ArrayBuffer> {
  const larger = new Uint32Array(size);
  larger.set(counts);
  return larger;
}
