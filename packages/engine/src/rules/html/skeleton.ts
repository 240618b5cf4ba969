// html-validate costs several milliseconds per page, fifty times the rules' budget. But pages of
// a site come from a few templates: they differ in their words and addresses, not in their
// markup. The skeleton is the page with exactly those parts replaced by a placeholder that
// html-validate judges the same way, so pages of one template share one skeleton and are
// validated once; each page maps the messages back to its own lines and columns.
import { isComment, isTag, isText, type ChildNode } from 'domhandler';
import type { PageElement, ParsedPage } from '../page.js';
import { emptyHash, hashStep, isWhiteSpace } from '../chars.js';
import { scanAttributes } from '../source.js';

/** A page's skeleton, known by its length and hash; its text is built only when asked for. */
export interface Skeleton {
  readonly length: number;
  /** FNV-1a of the skeleton's characters. */
  readonly hash: number;
  /** The skeleton as a string: built on first use (a cache miss), not for every page. */
  readonly source: string;
  /** Whether `source` is this skeleton, compared without building it. */
  equals(source: string): boolean;
  /** The page offset a skeleton offset came from (inside a placeholder: its start). */
  toPage(offset: number): number;
}

// Free-text attributes: html-validate only asks whether they are empty.
const freeText = new Set([
  'alt',
  'title',
  'placeholder',
  'aria-label',
  'aria-description',
  'class',
  'style',
  'content',
]);
// Addresses: html-validate checks they are non-empty and, for some, free of white space.
const addresses = new Set(['href', 'src', 'poster', 'cite', 'action', 'formaction']);
const rawTextElements = new Set(['script', 'style']);
// A text or value with `&` is replaced only when each `&` starts a numeric reference or one of
// these common named ones; anything else (a bare `&`, `&nbps;`) is html-validate's to judge.
const commonNames =
  'amp lt gt quot apos nbsp copy reg trade hellip mdash ndash lsquo rsquo ldquo rdquo laquo ' +
  'raquo bull middot times euro pound yen cent deg shy sect para zwnj zwj';
const knownReferences = new RegExp(
  `&(?:#\\d{1,7}|#[xX][0-9a-fA-F]{1,6}|${commonNames.split(' ').join('|')});`,
  'g',
);
const onlyKnownReferences = (raw: string): boolean =>
  !raw.replace(knownReferences, '').includes('&');

const placeholder = 0x78; // x
const blank = 0x20; // a text of white space keeps one space

/**
 * Where the next occurrence of one character is, for questions asked in document order: each
 * search starts where the last one stopped being useful, so a page costs one native scan per
 * character, not one per text.
 */
class NextChar {
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

/** What the skeleton asks of stretches of one page's source, without cutting them out. */
class SourceReader {
  private readonly ampersand: NextChar;
  private readonly lessThan: NextChar;
  private readonly greaterThan: NextChar;

  constructor(readonly html: string) {
    this.ampersand = new NextChar(html, '&');
    this.lessThan = new NextChar(html, '<');
    this.greaterThan = new NextChar(html, '>');
  }

  hasNonSpace(start: number, end: number): boolean {
    for (let i = start; i < end; i++) if (!isWhiteSpace(this.html.charCodeAt(i))) return true;
    return false;
  }

  hasSpace(start: number, end: number): boolean {
    for (let i = start; i < end; i++) if (isWhiteSpace(this.html.charCodeAt(i))) return true;
    return false;
  }

  hasAngle(start: number, end: number): boolean {
    return this.lessThan.within(start, end) || this.greaterThan.within(start, end);
  }

  /** No `&`, or each one starts a reference the placeholder can stand for. */
  referencesKnown(start: number, end: number): boolean {
    return !this.ampersand.within(start, end) || onlyKnownReferences(this.html.slice(start, end));
  }

  /** The placeholder for `html[start..end)`, or undefined when it must stay as written. */
  placeholderFor(
    start: number,
    end: number,
    kind: 'text' | 'free' | 'address',
  ): number | undefined {
    if (!this.hasNonSpace(start, end)) return kind === 'text' && end > start ? blank : undefined;
    if (kind === 'address' && this.hasSpace(start, end)) return undefined;
    if (kind === 'text' && this.hasAngle(start, end)) return undefined;
    return this.referencesKnown(start, end) ? placeholder : undefined;
  }
}

/** Edits as flat triples: start, end, placeholder character. */
type Edits = number[];

function attributeEdits(source: SourceReader, element: PageElement, edits: Edits): void {
  const names = Object.keys(element.attribs);
  const worth = names.some(
    (name) => freeText.has(name) || addresses.has(name) || name.startsWith('data-'),
  );
  if (!worth) return;
  for (const span of scanAttributes(source.html, element.startIndex ?? 0, element.tagEnd)) {
    if (span.quote === '' || span.valueEnd <= span.valueStart) continue;
    const free = freeText.has(span.name) || span.name.startsWith('data-');
    if (!free && !addresses.has(span.name)) continue;
    const kind = free ? 'free' : 'address';
    const code = source.placeholderFor(span.valueStart, span.valueEnd, kind);
    if (code !== undefined) edits.push(span.valueStart, span.valueEnd, code);
  }
}

/** Comments carry timestamps and cache ids; conditional comments and directives ([...]) stay. */
function isPlainComment(html: string, start: number, end: number): boolean {
  if (end - start <= 8 || !html.startsWith('<!--', start) || !html.startsWith('-->', end - 3))
    return false;
  for (let i = start; i < end; i++) if (html.charCodeAt(i) === 0x5b) return false;
  return true;
}

function nodeEdit(source: SourceReader, node: ChildNode, edits: Edits): void {
  const start = node.startIndex ?? 0;
  const end = Math.min((node.endIndex ?? start) + 1, source.html.length);
  if (isText(node)) {
    if (end <= start) return;
    const rawText = node.parent && isTag(node.parent) && rawTextElements.has(node.parent.name);
    const code = rawText
      ? source.hasNonSpace(start, end)
        ? placeholder
        : blank
      : source.placeholderFor(start, end, 'text');
    if (code !== undefined) edits.push(start, end, code);
  } else if (isComment(node)) {
    if (isPlainComment(source.html, start, end)) edits.push(start + 4, end - 3, placeholder);
  } else if (isTag(node)) {
    attributeEdits(source, node as PageElement, edits);
  }
}

export function buildSkeleton(page: ParsedPage): Skeleton {
  const edits: Edits = [];
  const source = new SourceReader(page.html);
  for (const node of page.nodes) nodeEdit(source, node, edits);
  return new PageSkeleton(page.html, edits);
}

/**
 * The page with each edit's stretch replaced by its placeholder character. Segment by segment:
 * the page text up to an edit, then its placeholder, and so on, then the rest of the page.
 */
class PageSkeleton implements Skeleton {
  readonly length: number;
  readonly hash: number;
  private text: string | undefined;
  private starts: { skeleton: number[]; page: number[] } | undefined;

  constructor(
    private readonly html: string,
    private readonly edits: Edits,
  ) {
    // Overlapping edits cannot happen; be safe anyway and keep the first.
    let kept = 0;
    let copied = 0;
    for (let i = 0; i < edits.length; i += 3) {
      if (edits[i]! < copied) continue;
      edits[kept++] = edits[i]!;
      edits[kept++] = edits[i + 1]!;
      edits[kept++] = edits[i + 2]!;
      copied = edits[i + 1]!;
    }
    edits.length = kept;
    let hash = emptyHash;
    let length = 0;
    copied = 0;
    for (let i = 0; i < edits.length; i += 3) {
      for (let at = copied; at < edits[i]!; at++) hash = hashStep(hash, html.charCodeAt(at));
      hash = hashStep(hash, edits[i + 2]!);
      length += edits[i]! - copied + 1;
      copied = edits[i + 1]!;
    }
    for (let at = copied; at < html.length; at++) hash = hashStep(hash, html.charCodeAt(at));
    this.length = length + html.length - copied;
    this.hash = hash;
  }

  get source(): string {
    if (this.text === undefined) {
      const parts: string[] = [];
      let copied = 0;
      for (let i = 0; i < this.edits.length; i += 3) {
        parts.push(this.html.slice(copied, this.edits[i]), String.fromCharCode(this.edits[i + 2]!));
        copied = this.edits[i + 1]!;
      }
      parts.push(this.html.slice(copied));
      this.text = parts.join('');
    }
    return this.text;
  }

  equals(source: string): boolean {
    if (source.length !== this.length) return false;
    const { html, edits } = this;
    let copied = 0;
    let at = 0;
    for (let i = 0; i <= edits.length; i += 3) {
      const until = i < edits.length ? edits[i]! : html.length;
      for (let from = copied; from < until; from++) {
        if (source.charCodeAt(at++) !== html.charCodeAt(from)) return false;
      }
      if (i === edits.length) break;
      if (source.charCodeAt(at++) !== edits[i + 2]) return false;
      copied = edits[i + 1]!;
    }
    return true;
  }

  toPage(offset: number): number {
    const { skeleton, page } = (this.starts ??= this.segmentStarts());
    let low = 0;
    let high = skeleton.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if ((skeleton[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    const pageStart = page[low] ?? 0;
    const copiedSegment = low % 2 === 0;
    return copiedSegment ? pageStart + offset - (skeleton[low] ?? 0) : pageStart;
  }

  /** Where each segment starts in the skeleton and in the page; odd segments are placeholders. */
  private segmentStarts(): { skeleton: number[]; page: number[] } {
    const skeleton: number[] = [];
    const page: number[] = [];
    let length = 0;
    let copied = 0;
    for (let i = 0; i < this.edits.length; i += 3) {
      const start = this.edits[i]!;
      skeleton.push(length, length + start - copied);
      page.push(copied, start);
      length += start - copied + 1;
      copied = this.edits[i + 1]!;
    }
    skeleton.push(length);
    page.push(copied);
    return { skeleton, page };
  }
}
