import { DomHandler, type AnyNode, type ChildNode, type Element } from 'domhandler';
import { decodeHTMLAttribute } from 'entities';
import { Parser, QuoteType } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { buildPageTree, type AttributeTable, type PageElement, type PageTree } from './page-dom.js';
import {
  randomHtmlDocuments,
  trickyHtml,
  unfinishedHtml,
} from '../extract/test-support/html-samples.js';

// buildPageTree must build exactly the tree ParsedPage built before with htmlparser2's Parser
// and a DomHandler (the reference below is that code): every node with its type, name,
// attributes, data and offsets, the page facts of every element, the element and node lists in
// their order and the count of unclosed elements.

const closedImplicitly = new Set([
  ...['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source'],
  ...['track', 'wbr', 'param', 'keygen', 'basefont', 'frame', 'isindex', 'command'],
  ...['html', 'head', 'body', 'p', 'li', 'dt', 'dd', 'option', 'optgroup', 'rt', 'rp', 'rb'],
  ...['tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'colgroup', 'caption'],
]);

/**
 * The Parser, noting where each attribute's value is as its Tokenizer reports it: the reference
 * for the attribute table (every attribute of a start tag the Parser keeps, repeats included).
 */
class AttributeNotingParser extends Parser {
  readonly attributes: AttributeTable = { names: [], valueStarts: [], valueEnds: [], quoted: [] };
  /** Where the attributes of the start tag being read begin in the table. */
  tagFirstAttribute = 0;
  private value: [number, number] | undefined;

  /** True while a self-closing tag closes its element (the Parser reports it as implied). */
  selfClosing = false;

  override onopentagname(start: number, endIndex: number): void {
    this.tagFirstAttribute = this.attributes.names.length;
    super.onopentagname(start, endIndex);
  }

  override onselfclosingtag(endIndex: number): void {
    this.selfClosing = true;
    super.onselfclosingtag(endIndex);
    this.selfClosing = false;
  }

  override onattribname(start: number, endIndex: number): void {
    this.value = undefined;
    super.onattribname(start, endIndex);
  }

  override onattribdata(start: number, endIndex: number): void {
    this.value = [this.value?.[0] ?? start, endIndex];
    super.onattribdata(start, endIndex);
  }

  override onattribend(quote: QuoteType, endIndex: number): void {
    const open = (this as unknown as { attribs: object | null }).attribs !== null;
    const name = (this as unknown as { attribname: string }).attribname;
    super.onattribend(quote, endIndex);
    if (!open) return;
    const [start, end] = quote === QuoteType.NoValue ? [endIndex, endIndex] : this.value!;
    this.attributes.names.push(name);
    this.attributes.valueStarts.push(start);
    this.attributes.valueEnds.push(end);
    this.attributes.quoted.push(quote === QuoteType.Double || quote === QuoteType.Single);
  }
}

/** ParsedPage's handler before buildPageTree, plus each element's place in the attribute table. */
class IndexingHandler extends DomHandler {
  readonly elements: PageElement[] = [];
  readonly nodes: ChildNode[] = [];
  unclosed = 0;
  noting: AttributeNotingParser | undefined;
  private source: { startIndex: number | null; endIndex: number | null } | undefined;

  override onparserinit(parser: { startIndex: number | null; endIndex: number | null }): void {
    super.onparserinit(parser);
    this.source = parser;
  }

  override onopentag(name: string, attribs: Record<string, string>): void {
    for (const key in attribs) {
      const value = attribs[key];
      if (value?.includes('&')) attribs[key] = decodeHTMLAttribute(value);
    }
    super.onopentag(name, attribs);
    const element = this.tagStack[this.tagStack.length - 1] as PageElement;
    const parent = this.tagStack[this.tagStack.length - 2] as Partial<PageElement> | undefined;
    element.tagEnd = this.source?.endIndex ?? element.startIndex ?? 0;
    element.depth = this.tagStack.length - 1;
    element.inHead = parent?.name === 'head' || parent?.inHead === true;
    element.inSvg = parent?.name === 'svg' || parent?.inSvg === true;
    // The attributes noted since its name (none for the `<p>` of `</p>` or the `<br>` of `</br>`).
    const noted = this.noting!.attributes.names.length;
    const first = Math.min(this.noting!.tagFirstAttribute, noted);
    element.firstAttribute = first;
    element.attributeCount = noted - first;
    this.noting!.tagFirstAttribute = noted;
    this.elements.push(element);
  }

  override onclosetag(name?: string, implied?: boolean): void {
    const selfClosed = this.noting!.selfClosing;
    if (implied && !selfClosed && name !== undefined && !closedImplicitly.has(name))
      this.unclosed++;
    super.onclosetag();
  }

  protected override addNode(node: ChildNode): void {
    super.addNode(node);
    this.nodes.push(node);
  }
}

function withParser(html: string): PageTree {
  const handler = new IndexingHandler(undefined, { withStartIndices: true, withEndIndices: true });
  const parser = new AttributeNotingParser(handler, { decodeEntities: false });
  handler.noting = parser;
  parser.end(html);
  const { root: document, elements, nodes, unclosed } = handler;
  return { document, elements, nodes, unclosed, attributes: parser.attributes };
}

/** A node and its subtree as plain data, each child with whether it points back to its parent. */
function describeNode(node: AnyNode): unknown {
  const element = node as Partial<PageElement> & Partial<Element>;
  return {
    class: node.constructor.name,
    keys: Object.keys(node),
    type: node.type,
    name: element.name,
    attribs: element.attribs && Object.entries(element.attribs),
    data: 'data' in node ? node.data : undefined,
    startIndex: node.startIndex,
    endIndex: node.endIndex,
    facts: [element.tagEnd, element.depth, element.inHead, element.inSvg],
    attributes: [element.firstAttribute, element.attributeCount],
    children:
      'children' in node
        ? node.children.map((child) => [child.parent === node, describeNode(child)])
        : undefined,
  };
}

/** Where a node is in its tree: the child indexes from the document down. */
function pathOf(node: AnyNode): number[] {
  const path: number[] = [];
  for (let at: AnyNode = node; at.parent; at = at.parent) {
    path.unshift(at.parent.children.indexOf(at));
  }
  return path;
}

function describeTree(tree: PageTree): unknown {
  return {
    document: describeNode(tree.document),
    elements: tree.elements.map(pathOf),
    nodes: tree.nodes.map(pathOf),
    unclosed: tree.unclosed,
    attributes: tree.attributes,
  };
}

function expectSameTree(html: string): void {
  expect(describeTree(buildPageTree(html)), html).toEqual(describeTree(withParser(html)));
}

describe('buildPageTree', () => {
  it("builds the Parser's tree of each tricky document", () => {
    for (const html of [...trickyHtml, ...unfinishedHtml, '']) expectSameTree(html);
    expectSameTree(trickyHtml.join('\n'));
  });

  it('builds the same tree of every beginning of the tricky documents, however they end', () => {
    const html = trickyHtml.join('');
    for (let end = 0; end <= html.length; end++) expectSameTree(html.slice(0, end));
    for (const unfinished of unfinishedHtml) {
      expectSameTree(`<p>a<svg><g>b${unfinished}`);
      expectSameTree(`<head><title>t</title><link rel=x>${unfinished}`);
    }
  });

  it('builds the same tree of 3,000 random documents', () => {
    for (const html of randomHtmlDocuments(3000, 11)) expectSameTree(html);
  });

  it('keeps the page facts of elements', () => {
    const { elements, unclosed } = buildPageTree(
      '<html><head><title>t</title></head><body><svg><g><path/></g></svg><div>x</body>',
    );
    const facts = elements.map((element) => [
      element.name,
      element.depth,
      element.inHead,
      element.inSvg,
    ]);
    expect(facts).toEqual([
      ['html', 1, false, false],
      ['head', 2, false, false],
      ['title', 3, true, false],
      ['body', 2, false, false],
      ['svg', 3, false, false],
      ['g', 4, false, true],
      ['path', 5, false, true],
      ['div', 3, false, false],
    ]);
    // The div the page never closes; the self-closed path is closed.
    expect(unclosed).toBe(1);
  });
});
