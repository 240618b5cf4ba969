/**
 * Turns character offsets of a streamed document into 1-based line and column numbers. It keeps
 * only the offsets of line breaks (small integers, 4 bytes each), never the text. (A plain array:
 * one typed array per page cost an ArrayBuffer to allocate and to sweep, for every page.)
 */
export class LineIndex {
  private readonly breaks: number[] = [];
  private seen = 0;

  /** Records the line breaks of the next chunk of the document. */
  add(chunk: string): void {
    let index = chunk.indexOf('\n');
    while (index !== -1) {
      this.breaks.push(this.seen + index);
      index = chunk.indexOf('\n', index + 1);
    }
    this.seen += chunk.length;
  }

  /** Line and column of the character at `offset` (both 1-based). */
  position(offset: number): { line: number; column: number } {
    let low = 0;
    let high = this.breaks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.breaks[middle] ?? 0) < offset) low = middle + 1;
      else high = middle;
    }
    const lineStart = low === 0 ? 0 : (this.breaks[low - 1] ?? 0) + 1;
    return { line: low + 1, column: offset - lineStart + 1 };
  }
}
