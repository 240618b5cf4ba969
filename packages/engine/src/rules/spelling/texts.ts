// The visible prose of a page, each piece with its context (title, heading, link …) and its
// source position. Code (by element or class), scripts, styles and anything marked as not to be
// spell-checked or not in English stay out; the text of code is handed over apart, as the
// site's terms.
import { isTag, isText, type AnyNode, type Element, type Text } from 'domhandler';
import { NextChar } from '../chars.js';
import { attr, isCode } from '../dom.js';
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
    /** The piece is inside the site's navigation (`nav`, a navigation bar, header or footer). */
    navigation: boolean,
  ): void;
  /** The text `text[begin..end)` of code the prose skips (`code`, `pre` …): the site's terms. */
  code?(text: string, begin: number, end: number): void;
}

// Elements, roles and class or id names of a site's navigation (menus, breadcrumbs, the
// Prev/Next bars of DocBook and Sphinx, Doxygen's tabs).
const navigationNames = new Set(['nav', 'header', 'footer']);
const navigationClass = /nav|related|breadcrumb|menu|sidebar|toc(?:\b|_)|tabs/i;
// Elements whose content is data or not prose at all.
const skipped = new Set([
  'script',
  'style',
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

function isNavigation(element: Element): boolean {
  if (navigationNames.has(element.name)) return true;
  const { role, class: names, id } = element.attribs;
  return (
    role === 'navigation' ||
    (names !== undefined && navigationClass.test(names)) ||
    (id !== undefined && navigationClass.test(id))
  );
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
    const navigations: boolean[] = [false];
    while (nodes.length > 0) {
      const node = nodes.pop()!;
      let context = contexts.pop()!;
      let navigation = navigations.pop()!;
      if (isText(node)) {
        this.text(node, context, navigation);
        continue;
      }
      if (isTag(node)) {
        if (isExcluded(node)) continue;
        if (isCode(node)) {
          this.code(node);
          continue;
        }
        this.attributes(node as PageElement, navigation);
        context = contextOf(node) ?? context;
        navigation ||= isNavigation(node);
      }
      if (!('children' in node)) continue;
      for (let i = node.children.length - 1; i >= 0; i--) {
        nodes.push(node.children[i]!);
        contexts.push(context);
        navigations.push(navigation);
      }
    }
  }

  /** The texts under a code element, for the reader's site terms (a loop, as `collect`). */
  private code(root: Element): void {
    const reader = this.reader;
    if (!reader.code) return;
    const html = this.page.html;
    const nodes: AnyNode[] = [root];
    while (nodes.length > 0) {
      const node = nodes.pop()!;
      if (isText(node)) {
        const start = node.startIndex ?? 0;
        reader.code(html, start, Math.min((node.endIndex ?? start) + 1, html.length));
      } else if ('children' in node) {
        for (let i = node.children.length - 1; i >= 0; i--) nodes.push(node.children[i]!);
      }
    }
  }

  private text(node: Text, context: TextContext, navigation: boolean): void {
    const start = node.startIndex ?? 0;
    const end = Math.min((node.endIndex ?? start) + 1, this.page.html.length);
    this.piece(context, start, end, navigation);
  }

  private piece(context: TextContext, start: number, end: number, navigation: boolean): void {
    const html = this.page.html;
    if (!this.ampersand.within(start, end)) {
      this.reader.read(context, html, start, end, undefined, navigation);
      return;
    }
    const decoded = SourceText.decode(html.slice(start, end), start);
    this.reader.read(context, decoded.text, 0, decoded.text.length, decoded, navigation);
  }

  private attributes(element: PageElement, navigation: boolean): void {
    const { name, attribs } = element;
    const type = attribs.type?.toLowerCase();
    if (attribs.alt && (name === 'img' || name === 'area' || type === 'image'))
      this.add(element, 'alt', 'alt', navigation);
    if (attribs.title) this.add(element, 'title', 'tooltip', navigation);
    if (attribs['aria-label']) this.add(element, 'aria-label', 'tooltip', navigation);
    if (attribs.placeholder) this.add(element, 'placeholder', 'form', navigation);
    if (name === 'input' && attribs.value && labelledInputs.has(type ?? ''))
      this.add(element, 'value', 'form', navigation);
    if (name === 'meta' && attribs.name?.toLowerCase() === 'description' && attribs.content) {
      this.add(element, 'content', 'description', navigation);
    }
  }

  private add(
    element: PageElement,
    attribute: string,
    context: TextContext,
    navigation: boolean,
  ): void {
    const span = attributeSpan(this.page, element, attribute);
    if (span) this.piece(context, span.valueStart, span.valueEnd, navigation);
  }
}

/**
 * Hands the page's prose to `reader` in document order; none when the page declares a language
 * other than English (`<html lang="de">` excludes the whole document like any other element).
 */
export function readTextSegments(page: ParsedPage, reader: SegmentReader): void {
  new SegmentCollector(page, reader).collect(page.document);
}
