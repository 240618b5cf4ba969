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
import { QuoteType, type TokenizerCallbacks } from 'htmlparser2';
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
  /** Its attributes in the page's AttributeTable: `firstAttribute` and the next ones. */
  firstAttribute: number;
  attributeCount: number;
}

/**
 * Every attribute of every start tag as written, in source order, repeated names too (the DOM's
 * attribs keep only the first): where its value sits, for the rules that point at a value or
 * replace it. One entry per attribute in flat lists, so a page makes no object per attribute.
 */
export interface AttributeTable {
  /** Lower-case names. */
  readonly names: string[];
  /** [valueStart, valueEnd) in the page source; empty at the name's end without a value. */
  readonly valueStarts: number[];
  readonly valueEnds: number[];
  /** Whether the value was written in quotes. */
  readonly quoted: boolean[];
}

/** A page's DOM, with its elements and nodes listed in document order. */
export interface PageTree {
  document: Document;
  elements: PageElement[];
  /** Every node (elements, texts, comments …) in document order. */
  nodes: ChildNode[];
  /** Elements the page opens and never closes (void elements and optional end tags aside). */
  unclosed: number;
  attributes: AttributeTable;
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
  private readonly attributes: AttributeTable = {
    names: [],
    valueStarts: [],
    valueEnds: [],
    quoted: [],
  };
  /** Where the start tag being read begins in the attribute table. */
  private tagFirstAttribute = 0;
  /** Where the attribute being read has its value; -1 before its first character. */
  private valueStart = -1;
  private valueEnd = -1;
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
    const { document, elements, nodes, unclosed, attributes } = this;
    return { document, elements, nodes, unclosed, attributes };
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
    this.valueStart = this.valueEnd = -1;
    this.attributeName =
      commonAttributeNames.find(this.html, start, endIndex) ??
      this.html.slice(start, endIndex).toLowerCase();
  }

  onattribdata(start: number, endIndex: number): void {
    if (this.valueStart === -1) this.valueStart = start;
    this.valueEnd = endIndex;
    this.attributeValue += this.html.slice(start, endIndex);
  }

  onattribentity(): void {
    // Not called: entities are not decoded.
  }

  onattribend(quote: QuoteType, endIndex: number): void {
    this.endIndex = endIndex;
    const attribs = this.attribs;
    const value = this.attributeValue;
    this.attributeValue = '';
    if (attribs !== null) this.recordAttribute(quote, endIndex);
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
    // one: the svg's foreign context begins with its name.) The Parser reports them closed as
    // implied, but a self-closed element is closed as written: it is not counted as unclosed
    // (an icon-heavy page has thousands of `<path/>`, and too many unclosed elements stop
    // html-validate from running on the page).
    if (this.isInForeignContext()) {
      this.endIndex = endIndex;
      this.closeStartedTag(false);
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
      this.addElement('br', {}, this.attributes.names.length, 0);
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

  /** The attribute just read, in the table, with where its value is. */
  private recordAttribute(quote: QuoteType, endIndex: number): void {
    const table = this.attributes;
    const noValue = quote === QuoteType.NoValue || this.valueStart === -1;
    table.names.push(this.attributeName);
    // Without a value, an empty one at the name's end.
    table.valueStarts.push(noValue ? endIndex : this.valueStart);
    table.valueEnds.push(noValue ? endIndex : this.valueEnd);
    table.quoted.push(quote === QuoteType.Double || quote === QuoteType.Single);
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
    this.tagFirstAttribute = this.attributes.names.length;
  }

  /** The start tag ends: its element is added (void elements closed at once). */
  private endStartTag(): void {
    this.startIndex = this.tagStart;
    const name = this.tagName;
    if (this.attribs !== null) {
      const first = this.tagFirstAttribute;
      this.addElement(name, this.attribs, first, this.attributes.names.length - first);
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

  private addElement(
    name: string,
    attribs: Record<string, string>,
    firstAttribute: number,
    attributeCount: number,
  ): void {
    const element = new Element(name, attribs) as PageElement;
    const parent = this.open[this.open.length - 1];
    this.addNode(element);
    element.tagEnd = this.endIndex;
    element.depth = this.open.length + 1;
    // Known at parse time, so no rule walks up the tree to ask (deep pages made that quadratic).
    element.inHead = parent !== undefined && (parent.name === 'head' || parent.inHead);
    element.inSvg = parent !== undefined && (parent.name === 'svg' || parent.inSvg);
    element.firstAttribute = firstAttribute;
    element.attributeCount = attributeCount;
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
