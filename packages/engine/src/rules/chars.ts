// Character tests and hashing on UTF-16 code units, for the loops that read page source
// character by character instead of slicing it out for a regular expression or a Map key.

/** The white space of JavaScript's `\s`, so a loop agrees with `/\S/.test(…)`. */
export function isWhiteSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** 32-bit FNV-1a over UTF-16 code units, step by step so a scanner can hash as it goes. */
export const emptyHash = 0x811c9dc5;
export const hashStep = (hash: number, code: number): number => Math.imul(hash ^ code, 0x01000193);

/**
 * A copy of a short piece of a page that does not keep the page alive. V8 makes a slice of a
 * long string a view into it, and findings outlive their page (the site rules keep one per page
 * until the crawl ends): flattening a concatenation copies the characters instead.
 */
export function detached(text: string): string {
  return (' ' + text).slice(1);
}

/**
 * Where the next occurrence of one character is, for questions asked in document order: each
 * search starts where the last one stopped being useful, so a page costs one native scan per
 * character, not one per text.
 */
export class NextChar {
  private from = -1; // where the last search started; -1 before the first
  private at = -1; // what it found; -1 for nothing

  constructor(
    private readonly html: string,
    private readonly char: string,
  ) {}

  within(start: number, end: number): boolean {
    if (this.from < 0 || start < this.from || (this.at !== -1 && this.at < start)) {
      this.from = start;
      this.at = this.html.indexOf(this.char, start);
    }
    return this.at !== -1 && this.at < end;
  }
}
