// The visible prose of a page, each piece with its context (title, heading, link …) and its
// source position. Code, scripts, styles and anything marked as not to be spell-checked or not
// in English stay out.
import { isTag, isText, type AnyNode, type Element, type Text } from 'domhandler';
import { NextChar } from '../chars.js';
import { attr } from '../dom.js';
import type { PageElement, ParsedPage } from '../page.js';
import { attributeSpan, SourceText } from '../source.js';

export type TextContext =
  'body' | 'title' | 'heading' | 'link' | 'form' | 'alt' | 'description' | 'tooltip';

/** Takes a page's prose one piece (a text, an attribute value) at a time, in document order. */
export interface SegmentReader {
  /**
   * The piece `text[begin..end)`. Most pieces have no character reference and are read where
   * they stand in the page: `text` is the page's source and `decoded` undefined. A piece with
   * references comes decoded, as its own text, with `decoded` to locate its characters.
   */
  read(
    context: TextContext,
    text: string,
    begin: number,
    end: number,
    decoded: SourceText | undefined,
  ): void;
}

// Elements whose content is code, data or not prose.
const skipped = new Set([
  'script',
  'style',
  'code',
  'pre',
  'kbd',
  'samp',
  'var',
  'tt',
  'noscript',
  'template',
  'svg',
  'math',
  'textarea',
  'iframe',
  'object',
]);
const headingNames = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const formTextNames = new Set(['button', 'label', 'option', 'legend']);
const labelledInputs = new Set(['submit', 'button', 'reset']);

const isEnglish = (lang: string | undefined): boolean =>
  lang === undefined || lang === '' || /^en(?:-|$)/i.test(lang);

function contextOf(element: Element): TextContext | undefined {
  if (element.name === 'title') return 'title';
  if (headingNames.has(element.name)) return 'heading';
  if (element.name === 'a') return 'link';
  if (formTextNames.has(element.name)) return 'form';
  return undefined;
}

function isExcluded(element: Element): boolean {
  return (
    skipped.has(element.name) ||
    element.attribs.spellcheck === 'false' ||
    attr(element, 'translate')?.toLowerCase() === 'no' ||
    !isEnglish(attr(element, 'lang'))
  );
}

/**
 * Walks a page for its prose. No piece is cut out of the page unless it has a reference to
 * decode: a page's prose is most of its characters, and copying it cost as much as reading it.
 */
class SegmentCollector {
  /** Where the next `&` is, for the pieces asked about in document order. */
  private readonly ampersand: NextChar;

  constructor(
    private readonly page: ParsedPage,
    private readonly reader: SegmentReader,
  ) {
    this.ampersand = new NextChar(page.html, '&');
  }

  /**
   * Collects the prose under `root` in document order (a loop: pages can nest very deep). Nodes
   * and their contexts wait on two parallel stacks, so the walk makes no object per node.
   */
  collect(root: AnyNode): void {
    const nodes: AnyNode[] = [root];
    const contexts: TextContext[] = ['body'];
    while (nodes.length > 0) {
      const node = nodes.pop()!;
      let context = contexts.pop()!;
      if (isText(node)) {
        this.text(node, context);
        continue;
      }
      if (isTag(node)) {
        if (isExcluded(node)) continue;
        this.attributes(node as PageElement);
        context = contextOf(node) ?? context;
      }
      if (!('children' in node)) continue;
      for (let i = node.children.length - 1; i >= 0; i--) {
        nodes.push(node.children[i]!);
        contexts.push(context);
      }
    }
  }

  private text(node: Text, context: TextContext): void {
    const start = node.startIndex ?? 0;
    this.piece(context, start, Math.min((node.endIndex ?? start) + 1, this.page.html.length));
  }

  private piece(context: TextContext, start: number, end: number): void {
    const html = this.page.html;
    if (!this.ampersand.within(start, end)) {
      this.reader.read(context, html, start, end, undefined);
      return;
    }
    const decoded = SourceText.decode(html.slice(start, end), start);
    this.reader.read(context, decoded.text, 0, decoded.text.length, decoded);
  }

  private attributes(element: PageElement): void {
    const { name, attribs } = element;
    const type = attribs.type?.toLowerCase();
    if (attribs.alt && (name === 'img' || name === 'area' || type === 'image'))
      this.add(element, 'alt', 'alt');
    if (attribs.title) this.add(element, 'title', 'tooltip');
    if (attribs['aria-label']) this.add(element, 'aria-label', 'tooltip');
    if (attribs.placeholder) this.add(element, 'placeholder', 'form');
    if (name === 'input' && attribs.value && labelledInputs.has(type ?? ''))
      this.add(element, 'value', 'form');
    if (name === 'meta' && attribs.name?.toLowerCase() === 'description' && attribs.content) {
      this.add(element, 'content', 'description');
    }
  }

  private add(element: PageElement, attribute: string, context: TextContext): void {
    const span = attributeSpan(this.page, element, attribute);
    if (span) this.piece(context, span.valueStart, span.valueEnd);
  }
}

/**
 * Hands the page's prose to `reader` in document order; none when the page declares a language
 * other than English (`<html lang="de">` excludes the whole document like any other element).
 */
export function readTextSegments(page: ParsedPage, reader: SegmentReader): void {
  new SegmentCollector(page, reader).collect(page.document);
}
