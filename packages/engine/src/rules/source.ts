// Reading the page source where the DOM has lost it: where an attribute's value sits inside its
// start tag, and which source offset each character of a decoded text came from. Both serve the
// line and column of a word or a value, not just of its element.
import type { PageElement, ParsedPage } from './page.js';

/** Where an attribute's value sits in the page source: [valueStart, valueEnd). */
export interface AttributeSpan {
  valueStart: number;
  valueEnd: number;
}

/** Where the value of one attribute of an element sits in the source (its first, if repeated). */
export function attributeSpan(
  page: ParsedPage,
  element: PageElement,
  name: string,
): AttributeSpan | undefined {
  const { names, valueStarts, valueEnds } = page.attributes;
  const end = element.firstAttribute + element.attributeCount;
  for (let i = element.firstAttribute; i < end; i++) {
    if (names[i] === name) return { valueStart: valueStarts[i]!, valueEnd: valueEnds[i]! };
  }
  return undefined;
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
