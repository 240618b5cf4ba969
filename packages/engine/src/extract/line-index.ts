/**
 * Turns character offsets of a streamed document into 1-based line and column numbers. It keeps
 * only the offsets of line breaks (4 bytes each), never the text.
 */
export class LineIndex {
  private breaks = new Int32Array(128);
  private count = 0;
  private seen = 0;

  /** Records the line breaks of the next chunk of the document. */
  add(chunk: string): void {
    let index = chunk.indexOf('\n');
    while (index !== -1) {
      this.push(this.seen + index);
      index = chunk.indexOf('\n', index + 1);
    }
    this.seen += chunk.length;
  }

  /** Line and column of the character at `offset` (both 1-based). */
  position(offset: number): { line: number; column: number } {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.breaks[middle] ?? 0) < offset) low = middle + 1;
      else high = middle;
    }
    const lineStart = low === 0 ? 0 : (this.breaks[low - 1] ?? 0) + 1;
    return { line: low + 1, column: offset - lineStart + 1 };
  }

  private push(offset: number): void {
    if (this.count === this.breaks.length) {
      const grown = new Int32Array(this.breaks.length * 2);
      grown.set(this.breaks);
      this.breaks = grown;
    }
    this.breaks[this.count++] = offset;
  }
}
