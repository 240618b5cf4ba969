import {
  Comment,
  Document,
  Element,
  ProcessingInstruction,
  Text,
  type ChildNode,
  type ParentNode,
} from 'domhandler';
import { decodeHTMLAttribute } from 'entities';
import type { QuoteType, TokenizerCallbacks } from 'htmlparser2';
import { NameTable } from '../extract/name-table.js';
import {
  commonTagNames,
  htmlIntegrationElements,
  openImpliesClose,
  svgTagNameAdjustments,
  voidElements,
} from '../extract/tree-rules.js';
import { tokenizeHtml } from './page-tokenizer.js';

/** An element with the source facts the rules need beyond domhandler's. */
export interface PageElement extends Element {
  /** Offset of the `>` that ends the start tag. */
  tagEnd: number;
  /** 1 for a top-level element. */
  depth: number;
  /** Inside a `<head>` or an inline `<svg>` (an ancestor, not the element itself). */
  inHead: boolean;
  inSvg: boolean;
}

/** A page's DOM, with its elements and nodes listed in document order. */
export interface PageTree {
  document: Document;
  elements: PageElement[];
  /** Every node (elements, texts, comments …) in document order. */
  nodes: ChildNode[];
  /** Elements the page opens and never closes (void elements and optional end tags aside). */
  unclosed: number;
}

/**
 * Parses a whole page into the tree htmlparser2's Parser and domhandler's DomHandler build from
 * it (with start and end indices, entities left as written in text), node for node and offset
 * for offset, plus the PageElement facts.
 */
export function buildPageTree(html: string): PageTree {
  return new PageTreeBuilder(html).build();
}

// Void elements and elements whose end tag HTML lets pages leave out.
const closedImplicitly = new Set([
  ...['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source'],
  ...['track', 'wbr', 'param', 'keygen', 'basefont', 'frame', 'isindex', 'command'],
  ...['html', 'head', 'body', 'p', 'li', 'dt', 'dd', 'option', 'optgroup', 'rt', 'rp', 'rb'],
  ...['tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'colgroup', 'caption'],
]);

/** Attribute names known in advance: most attributes are one of these, so no string is made. */
const commonAttributeNames = new NameTable(
  [
    ...'href src id class style rel type name content alt title lang charset width'.split(' '),
    ...'height property action method value for role target srcset sizes loading async'.split(' '),
    ...'defer crossorigin integrity media http-equiv tabindex placeholder autocomplete'.split(' '),
    ...'hidden disabled checked selected required aria-label aria-hidden aria-expanded'.split(' '),
    ...'aria-controls aria-labelledby aria-describedby data-src viewbox fill stroke d'.split(' '),
    ...'xmlns itemprop itemscope itemtype dir decoding fetchpriority referrerpolicy'.split(' '),
  ].map((name) => [name, name] as const),
);

const enum Foreign {
  None,
  Svg,
  MathML,
}

/**
 * Takes the page's tokens (as htmlparser2's Tokenizer reports them, entities left as written)
 * and applies the Parser's tree rules itself (void elements, implied closes, foreign content …),
 * making the domhandler nodes directly. The Parser and DomHandler cost as much as the tokenizer:
 * every event went through a callback object, every tag and attribute name was sliced and
 * lower-cased, the open elements were kept with unshift/shift, and each node was linked to its
 * siblings, which no rule reads.
 *
 * The Parser's `startIndex`/`endIndex` bookkeeping is kept as it is, because the nodes' offsets
 * come from it, quirks included: an element closed implicitly ends where the tag that closed it
 * ends its name, the elements still open at the end of the page end where the last token ended.
 */
class PageTreeBuilder implements TokenizerCallbacks {
  private readonly document = new Document([]);
  private readonly elements: PageElement[] = [];
  private readonly nodes: ChildNode[] = [];
  private unclosed = 0;
  /** Open elements, innermost last (the DomHandler's tag stack without the document). */
  private readonly open: PageElement[] = [];
  /** The Parser's foreign contexts, innermost last. */
  private readonly foreign: Foreign[] = [Foreign.None];
  /** The Parser's start index: where the next node starts. */
  private startIndex = 0;
  /** The Parser's end index: where the last event ended. */
  private endIndex = 0;
  /** The start tag being read: its name ('' for an ignored tag), start and attributes. */
  private tagName = '';
  private tagStart = 0;
  private attribs: Record<string, string> | null = null;
  /** Whether that tag is already open for the Parser (it opens at its name, not at `>`). */
  private tagPending = false;
  private attributeName = '';
  private attributeValue = '';
  /** The text node the next text is added to (the DomHandler's lastNode). */
  private lastText: Text | null = null;

  constructor(private readonly html: string) {}

  build(): PageTree {
    tokenizeHtml(this.html, this);
    const { document, elements, nodes, unclosed } = this;
    return { document, elements, nodes, unclosed };
  }

  isInForeignContext(): boolean {
    return this.foreign[this.foreign.length - 1] !== Foreign.None;
  }

  ontext(start: number, endIndex: number): void {
    this.endIndex = endIndex - 1;
    this.addText(this.html.slice(start, endIndex));
    this.startIndex = endIndex;
  }

  ontextentity(): void {
    // Not called: entities are not decoded.
  }

  onopentagname(start: number, endIndex: number): void {
    this.endIndex = endIndex;
    this.openStartTag(this.readTagName(start, endIndex));
  }

  onattribname(start: number, endIndex: number): void {
    this.startIndex = start;
    this.attributeName =
      commonAttributeNames.find(this.html, start, endIndex) ??
      this.html.slice(start, endIndex).toLowerCase();
  }

  onattribdata(start: number, endIndex: number): void {
    this.attributeValue += this.html.slice(start, endIndex);
  }

  onattribentity(): void {
    // Not called: entities are not decoded.
  }

  onattribend(_quote: QuoteType, endIndex: number): void {
    this.endIndex = endIndex;
    const attribs = this.attribs;
    const value = this.attributeValue;
    this.attributeValue = '';
    // The first of two attributes of the same name wins, as in browsers. Values are decoded here,
    // the few that have any references, so rules read what the browser would.
    if (attribs === null || Object.hasOwn(attribs, this.attributeName)) return;
    attribs[this.attributeName] = value.includes('&') ? decodeHTMLAttribute(value) : value;
  }

  onopentagend(endIndex: number): void {
    this.endIndex = endIndex;
    this.endStartTag();
    this.startIndex = endIndex + 1;
  }

  onselfclosingtag(endIndex: number): void {
    // Only foreign content (SVG, MathML) knows self-closing tags, as in browsers. (`<svg/>` is
    // one: the svg's foreign context begins with its name.) The Parser closes them as implied,
    // so they count as unclosed.
    if (this.isInForeignContext()) {
      this.endIndex = endIndex;
      this.closeStartedTag(true);
      this.startIndex = endIndex + 1;
    } else {
      this.onopentagend(endIndex);
    }
  }

  onclosetag(start: number, endIndex: number): void {
    this.endIndex = endIndex;
    const name = this.readTagName(start, endIndex);
    if (!voidElements.has(name)) {
      const at = this.openIndexOf(name);
      if (at !== -1) {
        while (this.open.length > at + 1) this.closeElement(true);
        this.closeElement(false);
      } else if (name === 'p') {
        // `</p>` without an open p is an empty paragraph.
        this.openStartTag('p');
        this.closeStartedTag(false);
      }
    } else if (name === 'br') {
      // `</br>` is a line break.
      this.addElement('br', {});
      this.closeElement(false);
    }
    this.startIndex = endIndex + 1;
  }

  oncomment(start: number, endIndex: number, offset: number): void {
    this.endIndex = endIndex;
    this.addNode(new Comment(this.html.slice(start, endIndex - offset)));
    this.startIndex = endIndex + 1;
  }

  oncdata(start: number, endIndex: number, offset: number): void {
    this.endIndex = endIndex;
    const value = this.html.slice(start, endIndex - offset);
    // In HTML, CDATA is a comment; inside SVG or MathML it is text.
    if (this.isInForeignContext()) this.addText(value);
    else this.addNode(new Comment(`[CDATA[${value}]]`));
    this.startIndex = endIndex + 1;
  }

  ondeclaration(start: number, endIndex: number): void {
    // In HTML the tokenizer reports only doctypes as declarations.
    this.endIndex = endIndex;
    this.addNode(new ProcessingInstruction('!doctype', `!${this.html.slice(start, endIndex)}`));
    this.startIndex = endIndex + 1;
  }

  onprocessinginstruction(start: number, endIndex: number): void {
    // Not called in HTML, where `<?…>` is a comment; kept as the Parser has it all the same.
    this.endIndex = endIndex;
    const value = this.html.slice(start, endIndex);
    const nameEnd = value.search(/\s|\//);
    const name = (nameEnd < 0 ? value : value.slice(0, nameEnd)).toLowerCase();
    this.addNode(new ProcessingInstruction(`?${name}`, `?${value}`));
    this.startIndex = endIndex + 1;
  }

  onend(): void {
    // What is still open ends where the last token ended.
    this.endIndex = this.startIndex;
    if (this.tagPending) {
      // A start tag cut off by the end of the page is open for the Parser but was never added:
      // the DomHandler closes one element too many, the document itself.
      this.countUnclosed(this.tagName);
      this.document.endIndex = this.endIndex;
    }
    while (this.open.length > 0) this.closeElement(true);
  }

  /** The Parser's name for a tag: lower case, with SVG's camel case and `image` as `img`. */
  private readTagName(start: number, endIndex: number): string {
    const name =
      commonTagNames.find(this.html, start, endIndex) ??
      this.html.slice(start, endIndex).toLowerCase();
    const context = this.foreign[this.foreign.length - 1];
    if (context === Foreign.Svg) return svgTagNameAdjustments.get(name) ?? name;
    // The end tag of an SVG element from inside an HTML island in it (`</foreignObject>`).
    if (this.foreign.length > 1) {
      const adjusted = svgTagNameAdjustments.get(name);
      if (adjusted !== undefined && this.openIndexOf(adjusted) !== -1) return adjusted;
    }
    return context === Foreign.None && name === 'image' ? 'img' : name;
  }

  /** A start tag's name is read: the Parser opens the element now, its node comes at `>`. */
  private openStartTag(name: string): void {
    this.tagStart = this.startIndex;
    this.tagName = name;
    // A form inside a form is ignored, attributes and all, as browsers do.
    if (name === 'form' && this.openIndexOf('form') !== -1) {
      this.tagName = '';
      return;
    }
    const closes = openImpliesClose.get(name);
    if (closes) {
      while (this.open.length > 0 && closes.has(this.open[this.open.length - 1]!.name))
        this.closeElement(true);
    }
    if (!voidElements.has(name)) {
      this.tagPending = true;
      if (name === 'svg') this.foreign.push(Foreign.Svg);
      else if (name === 'math') this.foreign.push(Foreign.MathML);
      else if (htmlIntegrationElements.has(name)) this.foreign.push(Foreign.None);
    }
    this.attribs = {};
  }

  /** The start tag ends: its element is added (void elements closed at once). */
  private endStartTag(): void {
    this.startIndex = this.tagStart;
    const name = this.tagName;
    if (this.attribs !== null) {
      this.addElement(name, this.attribs);
      this.attribs = null;
      if (voidElements.has(name)) this.closeElement(true);
    }
    this.tagPending = false;
    this.tagName = '';
  }

  /** Closes the tag just started: a self-closing one, or the empty paragraph of `</p>`. */
  private closeStartedTag(implied: boolean): void {
    const name = this.tagName;
    this.endStartTag();
    if (this.open[this.open.length - 1]?.name === name) this.closeElement(implied);
  }

  private addElement(name: string, attribs: Record<string, string>): void {
    const element = new Element(name, attribs) as PageElement;
    const parent = this.open[this.open.length - 1];
    this.addNode(element);
    element.tagEnd = this.endIndex;
    element.depth = this.open.length + 1;
    // Known at parse time, so no rule walks up the tree to ask (deep pages made that quadratic).
    element.inHead = parent !== undefined && (parent.name === 'head' || parent.inHead);
    element.inSvg = parent !== undefined && (parent.name === 'svg' || parent.inSvg);
    this.open.push(element);
    this.elements.push(element);
  }

  /** Closes the innermost open element (with the Parser, `implied` when no end tag says so). */
  private closeElement(implied: boolean): void {
    const element = this.open.pop()!;
    const name = element.name;
    if (name === 'svg' || name === 'math' || htmlIntegrationElements.has(name)) this.foreign.pop();
    if (implied) this.countUnclosed(name);
    element.endIndex = this.endIndex;
    this.lastText = null;
  }

  private countUnclosed(name: string): void {
    if (!closedImplicitly.has(name)) this.unclosed++;
  }

  /** Text right after text (only a tag that changed nothing between them) is one node. */
  private addText(data: string): void {
    const last = this.lastText;
    if (last === null) {
      const text = new Text(data);
      this.addNode(text);
      this.lastText = text;
    } else {
      last.data += data;
      last.endIndex = this.endIndex;
    }
  }

  private addNode(node: ChildNode): void {
    const parent: ParentNode = this.open[this.open.length - 1] ?? this.document;
    node.startIndex = this.startIndex;
    node.endIndex = this.endIndex;
    parent.children.push(node);
    node.parent = parent;
    this.nodes.push(node);
    this.lastText = null;
  }

  /** Where the innermost open element of this name is in `open`, or -1. */
  private openIndexOf(name: string): number {
    for (let at = this.open.length - 1; at >= 0; at--) if (this.open[at]!.name === name) return at;
    return -1;
  }
}
