import { endianness } from 'node:os';
import type { ChildNode, Document } from 'domhandler';
import { LineIndex } from '../extract/line-index.js';
import { buildPageTree, type AttributeTable, type PageElement } from './page-dom.js';
import type { RulePageInput, SiteLocation, SourceSpan, Spot } from './rule-types.js';
import type { ScanServices } from './services.js';

export type { PageElement } from './page-dom.js';

const snippetLength = 120;
/** Scratch space for the characters of one snippet: as bytes while they all fit in one. */
const snippetBytes = Buffer.alloc(snippetLength);
const snippetCodes = new Uint16Array(snippetLength);
// The scratch space as a string: Latin-1 bytes in a fifth of the time a UTF-16 TextDecoder
// takes (most snippets are ASCII markup), or the code units of a snippet with wider characters,
// decoded in the machine's byte order. A pair cut in half at the end becomes U+FFFD, which
// every output format can carry.
const snippetDecoder = new TextDecoder(endianness() === 'LE' ? 'utf-16le' : 'utf-16be');

/** The white space a snippet collapses: space, tab, line feed, form feed, carriage return. */
const isSnippetSpace = (code: number): boolean =>
  code === 32 || code === 10 || code === 9 || code === 13 || code === 12;

/**
 * One page parsed once for all rules: the DOM with source offsets, an index of elements by tag
 * name, line/column lookup and per-page memos for analyses several rules share (spelling words,
 * html-validate messages).
 */
export class ParsedPage {
  readonly document: Document;
  readonly elements: readonly PageElement[];
  /** Every node (elements, texts, comments …) in document order. */
  readonly nodes: readonly ChildNode[];
  /** Elements the page opens and never closes (void elements and optional end tags aside). */
  readonly unclosed: number;
  /** Every attribute of every start tag as written, with where its value is. */
  readonly attributes: AttributeTable;
  private tags: Map<string, PageElement[]> | undefined;
  private lines: LineIndex | undefined;
  private readonly memos = new Map<symbol, unknown>();
  private pageUrl: URL | null | undefined;
  private base: string | null | undefined;

  constructor(
    readonly input: RulePageInput,
    readonly services: ScanServices,
  ) {
    // Text nodes keep their character references as written: most rules never read text, and
    // those that do decode it (dom.ts textData, source.ts). That saves a twentieth of the cost.
    const tree = buildPageTree(input.html);
    this.document = tree.document;
    this.elements = tree.elements;
    this.nodes = tree.nodes;
    this.unclosed = tree.unclosed;
    this.attributes = tree.attributes;
  }

  get html(): string {
    return this.input.html;
  }

  /** The page's address, or undefined when the engine passed something unparseable. */
  get url(): URL | undefined {
    if (this.pageUrl === undefined) this.pageUrl = URL.parse(this.input.url);
    return this.pageUrl ?? undefined;
  }

  /** An address of the page resolved against its `<base href>` and URL. */
  resolve(href: string): URL | undefined {
    if (this.base === undefined) {
      const baseHref = this.first('base')?.attribs.href?.trim();
      const declared = baseHref ? URL.parse(baseHref, this.input.url) : null;
      this.base = declared?.href ?? this.url?.href ?? null;
    }
    return URL.parse(href.trim(), this.base ?? undefined) ?? undefined;
  }

  /** Elements with this (lower-case) tag name, in document order. */
  all(tag: string): readonly PageElement[] {
    if (!this.tags) {
      this.tags = new Map();
      for (const element of this.elements) {
        const list = this.tags.get(element.name);
        if (list) list.push(element);
        else this.tags.set(element.name, [element]);
      }
    }
    return this.tags.get(tag) ?? [];
  }

  first(tag: string): PageElement | undefined {
    return this.all(tag)[0];
  }

  /** Where a page-level finding is reported: the `<head>`, else `<html>`, else the first byte. */
  get headSpot(): Spot {
    return this.first('head') ?? this.first('html') ?? 0;
  }

  /** 1-based line and column of a character offset. */
  position(offset: number): { line: number; column: number } {
    if (!this.lines) {
      this.lines = new LineIndex();
      this.lines.add(this.html);
    }
    return this.lines.position(offset);
  }

  /** The source span of a spot: a node's outer source, or a span, or one offset. */
  span(spot: Spot): SourceSpan {
    if (typeof spot === 'number') return { start: spot, end: spot + snippetLength * 2 };
    if ('start' in spot) return spot;
    const start = spot.startIndex ?? 0;
    return { start, end: (spot.endIndex ?? start) + 1 };
  }

  /** At most 120 characters of source from the span, whitespace collapsed to single spaces. */
  snippet(span: SourceSpan): string {
    // Runs once per violation, hundreds of thousands of times on a large site: one pass that
    // stops at 120 characters, into a scratch buffer made a string once (adding run after run
    // to a string made a chain of string objects a kilobyte long per snippet). The string is
    // a copy, so a stored finding does not keep its page alive.
    const html = this.html;
    const end = Math.min(span.end, html.length);
    let length = 0;
    let wide = false; // a character beyond Latin-1
    let spaceDue = false; // white space after a word: one space, if another word follows
    for (let at = span.start; at < end && length < snippetLength; at++) {
      const code = html.charCodeAt(at);
      if (isSnippetSpace(code)) {
        spaceDue = length > 0;
        continue;
      }
      if (spaceDue) {
        snippetBytes[length] = 32;
        snippetCodes[length++] = 32;
        spaceDue = false;
        if (length === snippetLength) break;
      }
      if (code > 0xff) wide = true;
      snippetBytes[length] = code;
      snippetCodes[length++] = code;
    }
    return wide
      ? snippetDecoder.decode(snippetCodes.subarray(0, length))
      : snippetBytes.toString('latin1', 0, length);
  }

  /** A spot as a reportable place: page URL, 1-based line and column, a short source snippet. */
  locate(spot: Spot): SiteLocation {
    const span = this.span(spot);
    const { line, column } = this.position(span.start);
    return { url: this.input.url, line, column, snippet: this.snippet(span) };
  }

  /** The raw source of an element's start tag, `<a href="…">`. */
  startTag(element: PageElement): string {
    return this.html.slice(element.startIndex ?? 0, element.tagEnd + 1);
  }

  /** Computes a per-page analysis once, however many rules ask for it. */
  memo<T>(key: symbol, compute: (page: ParsedPage) => T): T {
    if (this.memos.has(key)) return this.memos.get(key) as T;
    const value = compute(this);
    this.memos.set(key, value);
    return value;
  }
}
