// Reading the page source where the DOM has lost it: where an attribute's value sits inside its
// start tag, and which source offset each character of a decoded text came from. Both serve the
// line and column of a word or a value, not just of its element.
import type { PageElement, ParsedPage } from './page.js';

/** An attribute of a start tag with its value's place in the page source. */
export interface AttributeSpan {
  /** Lower-case name. */
  name: string;
  /** [valueStart, valueEnd) in the page source; empty (at the name's end) without a value. */
  valueStart: number;
  valueEnd: number;
  quote: '"' | "'" | '';
}

const isSpace = (char: string | undefined): boolean =>
  char === ' ' || char === '\n' || char === '\t' || char === '\r' || char === '\f';

/** Lexes the attributes of the start tag `html[tagStart..tagEnd]` (`tagEnd` is its `>`). */
export function scanAttributes(html: string, tagStart: number, tagEnd: number): AttributeSpan[] {
  const spans: AttributeSpan[] = [];
  let i = tagStart + 1;
  while (i < tagEnd && !isSpace(html[i]) && html[i] !== '/') i++; // the tag name
  while (i < tagEnd) {
    while (i < tagEnd && (isSpace(html[i]) || html[i] === '/')) i++;
    const nameStart = i;
    while (i < tagEnd && !isSpace(html[i]) && html[i] !== '/' && html[i] !== '=') i++;
    if (i === nameStart) break;
    const name = html.slice(nameStart, i).toLowerCase();
    let next = i;
    while (next < tagEnd && isSpace(html[next])) next++;
    if (html[next] !== '=') {
      spans.push({ name, valueStart: i, valueEnd: i, quote: '' });
      continue;
    }
    next++;
    while (next < tagEnd && isSpace(html[next])) next++;
    const quote = html[next];
    if (quote === '"' || quote === "'") {
      const close = html.indexOf(quote, next + 1);
      const valueEnd = close === -1 || close > tagEnd ? tagEnd : close;
      spans.push({ name, valueStart: next + 1, valueEnd, quote });
      i = valueEnd + 1;
    } else {
      i = next;
      while (i < tagEnd && !isSpace(html[i])) i++;
      spans.push({ name, valueStart: next, valueEnd: i, quote: '' });
    }
  }
  return spans;
}

/** Where the value of one attribute of an element sits in the source. */
export function attributeSpan(
  page: ParsedPage,
  element: PageElement,
  name: string,
): AttributeSpan | undefined {
  const spans = scanAttributes(page.html, element.startIndex ?? 0, element.tagEnd);
  return spans.find((span) => span.name === name);
}

// The references that turn up inside words and sentences; any other one splits words.
const namedReferences: Record<string, string> = {
  amp: '&',
  apos: "'",
  quot: '"',
  lt: '<',
  gt: '>',
  nbsp: '\u00a0',
  rsquo: '\u2019',
  lsquo: '\u2018',
  rdquo: '\u201d',
  ldquo: '\u201c',
  hellip: '\u2026',
  mdash: '\u2014',
  ndash: '\u2013',
  shy: '',
};

const reference = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));?/g;

function decodeReference(decimal?: string, hex?: string, name?: string): string {
  const codePoint = decimal ? Number(decimal) : hex ? parseInt(hex, 16) : undefined;
  if (codePoint !== undefined) {
    return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : ' ';
  }
  return namedReferences[name ?? ''] ?? ' ';
}

/**
 * A decoded text that remembers the source offset of each of its characters, so a word found in
 * it can be located in the page. Texts without `&` (nearly all) need no map at all; the others
 * keep one entry per piece (a run copied as written, or one decoded reference), not per character.
 */
export class SourceText {
  private constructor(
    readonly text: string,
    private readonly rawStart: number,
    private readonly rawLength: number,
    /** Pieces as triples: start in the text, offset in the raw source, 1 copied or 0 decoded. */
    private readonly pieces: number[] | undefined,
  ) {}

  /** Decodes `raw`, which starts at `rawStart` in the page source. */
  static decode(raw: string, rawStart: number): SourceText {
    if (!raw.includes('&')) return new SourceText(raw, rawStart, raw.length, undefined);
    let text = '';
    const pieces: number[] = [];
    let last = 0;
    for (const match of raw.matchAll(reference)) {
      if (match.index > last) pieces.push(text.length, last, 1);
      text += raw.slice(last, match.index);
      const decoded = decodeReference(match[1], match[2], match[3]);
      if (decoded.length > 0) pieces.push(text.length, match.index, 0);
      text += decoded;
      last = match.index + match[0].length;
    }
    if (raw.length > last) pieces.push(text.length, last, 1);
    text += raw.slice(last);
    return new SourceText(text, rawStart, raw.length, pieces);
  }

  /** The page source offset of the character at `index` of the decoded text. */
  offset(index: number): number {
    if (!this.pieces) return this.rawStart + index;
    if (index === this.text.length) return this.rawStart + this.rawLength;
    if (index < 0 || index > this.text.length) return this.rawStart;
    // Binary search (a text can hold thousands of references) for the last piece starting at
    // or before `index`.
    const pieces = this.pieces;
    let low = 0;
    let high = pieces.length / 3 - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (pieces[middle * 3]! <= index) low = middle;
      else high = middle - 1;
    }
    const piece = low * 3;
    const copied = pieces[piece + 2] === 1;
    return this.rawStart + pieces[piece + 1]! + (copied ? index - pieces[piece]! : 0);
  }
}
