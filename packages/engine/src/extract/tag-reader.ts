import { Tokenizer, type QuoteType, type TokenizerCallbacks } from 'htmlparser2';
import { decodeHTML, decodeHTMLAttribute } from 'entities/decode';
import { NameTable } from './name-table.js';
import {
  commonTagNames,
  htmlIntegrationElements,
  openImpliesClose,
  voidElements,
} from './tree-rules.js';

/** The attributes a reader copies, compiled once; each is known by its index in the list. */
export class AttributeSet {
  readonly table: NameTable<number>;

  constructor(readonly names: readonly string[]) {
    this.table = new NameTable(names.map((name, index) => [name, index] as const));
  }
}

/** A tag's wanted attributes by their index in the AttributeSet; undefined when absent. */
export type AttributeValues = readonly (string | undefined)[];

/** What a TagReader reports: elements opening and closing, and text while it is wanted. */
export interface TagHandler {
  /**
   * An element opens. `start` is the offset of its `<`. `attributes` holds the wanted attributes
   * the tag has (first occurrence, entities decoded); the list is reused, so read it now.
   */
  openTag(name: string, start: number, attributes: AttributeValues): void;
  /** An element closes: explicitly, implied by another tag, or at the end of the document. */
  closeTag(name: string): void;
  /** Whether text is read now; text is neither copied nor reported otherwise. */
  wantsText(): boolean;
  /**
   * The text between two tags (while wanted), starting at offset `start`: entities decoded,
   * except in raw-text elements (script, style…), whose text is as written.
   */
  text(text: string, start: number): void;
}

const enum Foreign {
  None,
  Svg,
  MathML,
}

/** Elements whose text the tokenizer reads raw: no tags, no entities (outside SVG and MathML). */
const rawTextElements = new Set([
  'script',
  'style',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'plaintext',
]);

/**
 * Reads the elements of an HTML document as it streams in, with htmlparser2's tokenizer and the
 * tree rules of its Parser (void elements, implied closes, foreign content), but copies only
 * what the handler asked for: the tag names, the wanted attributes and, on request, text. The
 * Parser made an object of every tag's attributes and a string of every name, value and text:
 * a third of the parse, for the few attributes a link extractor reads.
 */
export class TagReader implements TokenizerCallbacks {
  private readonly tokenizer: Tokenizer;
  private readonly attributes: (string | undefined)[];
  /**
   * The indexes of the attributes the current tag has set, and how many. (Emptying an array by
   * its length gives its storage back, and the next push allocates it again: once per tag.)
   */
  private readonly setAttributes: Int8Array;
  private setCount = 0;
  /** Open elements, innermost last. */
  private readonly stack: string[] = [];
  private readonly foreign: Foreign[] = [Foreign.None];
  /** The chunks not read to the end yet; the first one starts at `bufferOffset`. */
  private readonly buffers: string[] = [];
  private bufferOffset = 0;
  private tagName = '';
  private tagStart = 0;
  /** The index of the attribute being read (-1: not wanted, or its tag is ignored). */
  private attribute = -1;
  private attributeValue = '';
  private inTag = false;
  /** Where the next piece of text starts (the Parser's startIndex). */
  private textStart = 0;
  /** The text read since the last tag, and where it started (-1: none). */
  private pendingText = '';
  private pendingStart = -1;

  constructor(
    private readonly wanted: AttributeSet,
    private readonly handler: TagHandler,
  ) {
    if (wanted.names.length > 127) throw new Error('at most 127 attributes can be wanted');
    this.attributes = wanted.names.map(() => undefined);
    this.setAttributes = new Int8Array(wanted.names.length);
    // Entities are decoded afterwards, in the few values and texts that are read and hold an
    // `&`: the tokenizer then skips over text and quoted values instead of stepping through
    // every character (40% of its time on the bench pages).
    this.tokenizer = new Tokenizer({ decodeEntities: false }, this);
  }

  write(chunk: string): void {
    this.buffers.push(chunk);
    this.tokenizer.write(chunk);
  }

  end(): void {
    this.tokenizer.end();
  }

  isInForeignContext(): boolean {
    return this.foreign[this.foreign.length - 1] !== Foreign.None;
  }

  onopentagname(start: number, endIndex: number): void {
    this.flushText();
    this.release(start);
    this.openElement(this.readTagName(start, endIndex), start - 1);
  }

  onattribname(start: number, endIndex: number): void {
    if (!this.inTag) return;
    const index = this.lookUp(this.wanted.table, start, endIndex) ?? -1;
    this.attribute = index !== -1 && this.attributes[index] === undefined ? index : -1;
    this.attributeValue = '';
  }

  onattribdata(start: number, endIndex: number): void {
    if (this.attribute !== -1) this.attributeValue += this.slice(start, endIndex);
  }

  onattribentity(): void {
    // Not called: values are decoded in onattribend.
  }

  onattribend(_quote: QuoteType, _endIndex: number): void {
    if (this.attribute === -1) return;
    const value = this.attributeValue;
    this.attributes[this.attribute] = value.includes('&') ? decodeHTMLAttribute(value) : value;
    this.setAttributes[this.setCount++] = this.attribute;
    this.attribute = -1;
  }

  onopentagend(endIndex: number): void {
    this.endOpenTag();
    this.textStart = endIndex + 1;
  }

  onselfclosingtag(endIndex: number): void {
    // Only foreign content (SVG, MathML) knows self-closing tags, as in browsers.
    if (this.isInForeignContext()) {
      this.closeJustOpened();
      this.textStart = endIndex + 1;
    } else {
      this.onopentagend(endIndex);
    }
  }

  onclosetag(start: number, endIndex: number): void {
    this.flushText();
    this.release(start);
    const name = this.readTagName(start, endIndex);
    if (!voidElements.has(name)) {
      const at = this.stack.lastIndexOf(name);
      if (at !== -1) {
        while (this.stack.length > at) this.popElement();
      } else if (name === 'p') {
        // `</p>` without an open p is an empty paragraph.
        this.openElement('p', start - 2);
        this.closeJustOpened();
      }
    } else if (name === 'br') {
      // `</br>` is a line break.
      this.handler.openTag('br', start - 2, this.attributes);
      this.handler.closeTag('br');
    }
    this.textStart = endIndex + 1;
  }

  ontext(start: number, endIndex: number): void {
    this.release(start);
    if (this.handler.wantsText()) {
      if (this.pendingStart === -1) this.pendingStart = this.textStart;
      this.pendingText += this.slice(start, endIndex);
    }
    this.textStart = endIndex;
  }

  ontextentity(): void {
    // Not called: entities are decoded in flushText.
  }

  oncdata(start: number, endIndex: number, offset: number): void {
    this.flushText();
    this.release(start);
    // In HTML, CDATA is a comment; inside SVG or MathML it is text.
    if (this.isInForeignContext() && this.handler.wantsText())
      this.handler.text(this.slice(start, endIndex - offset), this.textStart);
    this.textStart = endIndex + 1;
  }

  oncomment(start: number, endIndex: number): void {
    this.flushText();
    this.release(start);
    this.textStart = endIndex + 1;
  }

  ondeclaration(start: number, endIndex: number): void {
    this.flushText();
    this.release(start);
    this.textStart = endIndex + 1;
  }

  onprocessinginstruction(start: number, endIndex: number): void {
    this.flushText();
    this.release(start);
    this.textStart = endIndex + 1;
  }

  onend(): void {
    this.flushText();
    while (this.stack.length > 0) this.popElement();
  }

  /** Hands over the text read since the last tag: entities decoded, except in raw text. */
  private flushText(): void {
    if (this.pendingStart === -1) return;
    const top = this.stack[this.stack.length - 1];
    const raw = top !== undefined && rawTextElements.has(top) && !this.isInForeignContext();
    const text = this.pendingText;
    const start = this.pendingStart;
    this.pendingText = '';
    this.pendingStart = -1;
    this.handler.text(!raw && text.includes('&') ? decodeHTML(text) : text, start);
  }

  private readTagName(start: number, endIndex: number): string {
    const name =
      this.lookUp(commonTagNames, start, endIndex) ?? this.slice(start, endIndex).toLowerCase();
    const context = this.foreign[this.foreign.length - 1];
    // SVG's camel-case names matter only for foreignObject (an HTML island); the others keep
    // their lower-case names on both tags, which pair up all the same.
    if (name === 'foreignobject') {
      const inSvg =
        context === Foreign.Svg ||
        (this.foreign.length > 1 && this.stack.includes('foreignObject'));
      return inSvg ? 'foreignObject' : name;
    }
    return context === Foreign.None && name === 'image' ? 'img' : name;
  }

  private openElement(name: string, start: number): void {
    this.tagStart = start;
    this.tagName = name;
    this.inTag = false;
    // A form inside a form is ignored, attributes and all, as browsers do.
    if (name === 'form' && this.stack.includes('form')) {
      this.tagName = '';
      return;
    }
    const closes = openImpliesClose.get(name);
    if (closes) {
      while (this.stack.length > 0 && closes.has(this.stack[this.stack.length - 1]!))
        this.popElement();
    }
    if (!voidElements.has(name)) {
      this.stack.push(name);
      if (name === 'svg') this.foreign.push(Foreign.Svg);
      else if (name === 'math') this.foreign.push(Foreign.MathML);
      else if (htmlIntegrationElements.has(name)) this.foreign.push(Foreign.None);
    }
    this.inTag = true;
  }

  private endOpenTag(): void {
    if (this.inTag) {
      this.handler.openTag(this.tagName, this.tagStart, this.attributes);
      this.clearAttributes();
      if (voidElements.has(this.tagName)) this.handler.closeTag(this.tagName);
    }
    this.inTag = false;
    this.tagName = '';
  }

  /** Closes the element just opened (the empty paragraph of a lone `</p>`). */
  private closeJustOpened(): void {
    const name = this.tagName;
    this.endOpenTag();
    if (this.stack[this.stack.length - 1] === name) this.popElement();
  }

  private popElement(): void {
    const name = this.stack.pop()!;
    if (name === 'svg' || name === 'math' || htmlIntegrationElements.has(name)) this.foreign.pop();
    this.handler.closeTag(name);
  }

  private clearAttributes(): void {
    for (let set = 0; set < this.setCount; set++)
      this.attributes[this.setAttributes[set]!] = undefined;
    this.setCount = 0;
    this.attribute = -1;
  }

  /** A name of the document found in a table, read in place unless it spans two chunks. */
  private lookUp<Value>(table: NameTable<Value>, start: number, end: number): Value | undefined {
    this.release(start);
    const buffer = this.buffers[0]!;
    if (end - this.bufferOffset <= buffer.length)
      return table.find(buffer, start - this.bufferOffset, end - this.bufferOffset);
    const name = this.slice(start, end);
    return table.find(name, 0, name.length);
  }

  /** The document's characters from `start` to `end`, across chunk boundaries. */
  private slice(start: number, end: number): string {
    if (start === end) return '';
    this.release(start);
    let text = this.buffers[0]!.slice(start - this.bufferOffset, end - this.bufferOffset);
    let offset = this.bufferOffset;
    for (let index = 1; end - offset > this.buffers[index - 1]!.length; index++) {
      offset += this.buffers[index - 1]!.length;
      text += this.buffers[index]!.slice(0, end - offset);
    }
    return text;
  }

  /** Drops the chunks that end before `start`: nothing before a token's start is read again. */
  private release(start: number): void {
    while (this.buffers.length > 1 && start - this.bufferOffset >= this.buffers[0]!.length) {
      this.bufferOffset += this.buffers.shift()!.length;
    }
  }
}
