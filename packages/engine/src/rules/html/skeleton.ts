// html-validate costs several milliseconds per page, fifty times the rules' budget. But pages of
// a site come from a few templates: they differ in their words and addresses, not in their
// markup. The skeleton is the page with exactly those parts replaced by a placeholder that
// html-validate judges the same way, so pages of one template share one skeleton and are
// validated once; each page maps the messages back to its own lines and columns.
import { isComment, isTag, isText, type ChildNode, type Text } from 'domhandler';
import type { AttributeTable, PageElement } from '../page-dom.js';
import { emptyHash, hashStep, isWhiteSpace, NextChar } from '../chars.js';

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
  /** The skeleton offset of a page offset outside any placeholder (a node's start or end). */
  fromPage(offset: number): number;
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

// `name` on `<a>` is an old-style anchor: html-validate reports the attribute as obsolete and
// reads nothing of its value (a control's or a map's name it compares across the page).
const isReplaceable = (name: string, element: PageElement): boolean =>
  freeText.has(name) ||
  addresses.has(name) ||
  name.startsWith('data-') ||
  (name === 'name' && element.name === 'a');

/** Quoted values of free text or addresses (unquoted ones stay: their end is the markup's). */
function attributeEdits(
  source: SourceReader,
  attributes: AttributeTable,
  element: PageElement,
  edits: Edits,
): void {
  const { names, valueStarts, valueEnds, quoted } = attributes;
  const end = element.firstAttribute + element.attributeCount;
  for (let i = element.firstAttribute; i < end; i++) {
    const name = names[i]!;
    if (!quoted[i] || valueEnds[i]! <= valueStarts[i]! || !isReplaceable(name, element)) continue;
    const kind = addresses.has(name) ? 'address' : 'free';
    const code = source.placeholderFor(valueStarts[i]!, valueEnds[i]!, kind);
    if (code !== undefined) edits.push(valueStarts[i]!, valueEnds[i]!, code);
  }
}

/** Comments carry timestamps and cache ids; conditional comments and directives ([...]) stay. */
function isPlainComment(html: string, start: number, end: number): boolean {
  if (end - start <= 8 || !html.startsWith('<!--', start) || !html.startsWith('-->', end - 3))
    return false;
  for (let i = start; i < end; i++) if (html.charCodeAt(i) === 0x5b) return false;
  return true;
}

function textEdit(source: SourceReader, node: Text, edits: Edits): void {
  const start = node.startIndex ?? 0;
  const end = Math.min((node.endIndex ?? start) + 1, source.html.length);
  if (end <= start) return;
  const parent = node.parent;
  const rawText =
    parent !== null && isTag(parent) && (parent.name === 'script' || parent.name === 'style');
  const code = rawText
    ? source.hasNonSpace(start, end)
      ? placeholder
      : blank
    : source.placeholderFor(start, end, 'text');
  if (code !== undefined) edits.push(start, end, code);
}

/**
 * What a skeleton is built from: the page source and its parsed nodes. A ParsedPage is one; the
 * validator sits below the page model (whose services include it), so it names only these.
 */
export interface SkeletonSource {
  readonly html: string;
  readonly nodes: readonly ChildNode[];
  readonly attributes: AttributeTable;
}

export function buildSkeleton(page: SkeletonSource): Skeleton {
  const edits: Edits = [];
  const source = new SourceReader(page.html);
  const { nodes, attributes } = page;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    if (isText(node)) {
      textEdit(source, node, edits);
    } else if (isComment(node)) {
      const start = node.startIndex ?? 0;
      const end = Math.min((node.endIndex ?? start) + 1, source.html.length);
      if (isPlainComment(source.html, start, end)) edits.push(start + 4, end - 3, placeholder);
    } else if (isTag(node)) {
      attributeEdits(source, attributes, node as PageElement, edits);
    }
  }
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

  fromPage(offset: number): number {
    const { skeleton, page } = (this.starts ??= this.segmentStarts());
    let low = 0;
    let high = page.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if ((page[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    const skeletonStart = skeleton[low] ?? 0;
    const copiedSegment = low % 2 === 0;
    return copiedSegment ? skeletonStart + offset - (page[low] ?? 0) : skeletonStart;
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
