import { QuoteType, type TokenizerCallbacks } from 'htmlparser2';

/**
 * Reports the tokens of a whole HTML page to `callbacks` exactly as htmlparser2's Tokenizer
 * does in HTML mode without decoding entities (`{ decodeEntities: false }`), given the page in
 * one piece: the same callbacks with the same offsets in the same order, down to the odd ones at
 * the end of a cut-off page. That Tokenizer steps through a state machine character by
 * character (tag names, attributes, white space …) and cost as much as building the whole tree
 * from its tokens; knowing the page is one string, this one searches with indexOf and scans
 * each construct in one loop.
 */
export function tokenizeHtml(html: string, callbacks: TokenizerCallbacks): void {
  new WholePageTokenizer(html, callbacks).run();
}

// Character codes. (Constants, not a const enum: with isolatedModules the build does not inline
// an enum's members, and reading them off the enum object cost a few percent of the parse.)
const charTab = 9;
const charNewLine = 10;
const charFormFeed = 12;
const charCarriageReturn = 13;
const charSpace = 32;
const charExclamationMark = 33;
const charDoubleQuote = 34;
const charSingleQuote = 39;
const charDash = 45;
const charSlash = 47;
const charLt = 60;
const charEq = 61;
const charGt = 62;
const charQuestionMark = 63;
const charOpeningSquareBracket = 91;
const charLowerD = 100;

/** What a construct's reader returns when the page ended inside it (the end is handled). */
const pageEnded = -1;

const codes = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));

// The Tokenizer's sequences, matched as it matches them (`c | 0x20` against lower case).
const cdataStart = codes('CDATA[');
const cdataEnd = codes(']]>');
const commentEnd = codes('--!>');
const doctype = codes('doctype');
const endTags = {
  iframe: codes('</iframe'),
  noembed: codes('</noembed'),
  noframes: codes('</noframes'),
  plaintext: codes('</plaintext'),
  script: codes('</script'),
  style: codes('</style'),
  title: codes('</title'),
  textarea: codes('</textarea'),
  xmp: codes('</xmp'),
};
/** Elements whose text is raw, by the first letter of their name (index 2 of the end tag). */
const rawTextStarts = new Map(
  [
    endTags.iframe,
    endTags.noembed,
    endTags.plaintext,
    endTags.script,
    endTags.title,
    endTags.xmp,
  ].map((sequence) => [sequence[2]!, sequence] as const),
);

const isWhitespace = (c: number): boolean =>
  c === charSpace ||
  c === charNewLine ||
  c === charTab ||
  c === charFormFeed ||
  c === charCarriageReturn;

const isEndOfTagSection = (c: number): boolean =>
  c === charSlash || c === charGt || isWhitespace(c);

const isAsciiAlpha = (c: number): boolean => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;

/**
 * The end tag of the raw-text element (script, style, title, textarea …) whose name begins with
 * the tag name `html[start..end)`, matched as the Tokenizer matches it: letter by letter from the
 * first, telling script from style, title from textarea and noembed from noframes when they part.
 */
function rawTextEndTag(html: string, start: number, end: number): Uint8Array | undefined {
  let sequence: Uint8Array | undefined = rawTextStarts.get(html.charCodeAt(start) | 0x20);
  for (let at = start + 1; sequence !== undefined && at < end; at++) {
    const index = at - start + 2; // the sequence starts with `</`
    if (index >= sequence.length) return undefined;
    const lower = html.charCodeAt(at) | 0x20;
    if (lower !== sequence[index]) sequence = alternativeEndTag(sequence, index, lower);
  }
  return sequence;
}

function alternativeEndTag(
  sequence: Uint8Array,
  index: number,
  lower: number,
): Uint8Array | undefined {
  if (index === 3) {
    if (sequence === endTags.script && lower === endTags.style[3]) return endTags.style;
    if (sequence === endTags.title && lower === endTags.textarea[3]) return endTags.textarea;
  } else if (index === 4 && sequence === endTags.noembed && lower === endTags.noframes[4]) {
    return endTags.noframes;
  }
  return undefined;
}

/**
 * Each reader below starts where the Tokenizer enters one of its states and returns where text
 * starts again after the construct, or `pageEnded`. The Tokenizer's handling of a page that
 * ends inside a construct (its cleanup and handleTrailingData) is in each reader's end.
 */
class WholePageTokenizer {
  private readonly length: number;

  constructor(
    private readonly html: string,
    private readonly callbacks: TokenizerCallbacks,
  ) {
    this.length = html.length;
  }

  run(): void {
    const { html, length, callbacks } = this;
    let textStart = 0;
    let searchFrom = 0;
    for (;;) {
      const lt = html.indexOf('<', searchFrom);
      if (lt === -1) {
        if (textStart < length) callbacks.ontext(textStart, length);
        break;
      }
      if (lt > textStart) callbacks.ontext(textStart, lt);
      // The `<` belongs to the next text unless a tag, comment … starts here.
      textStart = lt;
      if (lt + 1 === length) {
        callbacks.ontext(lt, length);
        break;
      }
      const next = html.charCodeAt(lt + 1);
      let resume: number;
      if (isAsciiAlpha(next)) resume = this.startTag(lt + 1);
      else if (next === charSlash) resume = this.endTag(lt);
      else if (next === charExclamationMark) resume = this.markupDeclaration(lt + 2);
      else if (next === charQuestionMark) resume = this.bogusComment(lt + 1, lt + 1);
      else {
        searchFrom = lt + 1;
        continue;
      }
      if (resume === pageEnded) break;
      textStart = searchFrom = resume;
    }
    callbacks.onend();
  }

  /** `<name …>`, from the name's first letter. */
  private startTag(nameStart: number): number {
    const { html, length, callbacks } = this;
    const inForeignContent = callbacks.isInForeignContext?.() === true;
    const nameEnd = this.endOfTagSection(nameStart + 1);
    let endTag = inForeignContent ? undefined : rawTextEndTag(html, nameStart, nameEnd);
    if (nameEnd === length) {
      // A start tag cut off by the end of the page is dropped, unless its name so far could
      // still be script, style … : the Tokenizer then makes the name text.
      if (endTag !== undefined) callbacks.ontext(nameStart, length);
      return pageEnded;
    }
    if (endTag !== undefined && endTag.length !== nameEnd - nameStart + 2) endTag = undefined;
    callbacks.onopentagname(nameStart, nameEnd);
    return this.attributes(nameEnd, endTag);
  }

  /** The attributes of a start tag and its end, from just after the name. */
  private attributes(at: number, endTag: Uint8Array | undefined): number {
    const { html, length, callbacks } = this;
    while (at < length) {
      const c = html.charCodeAt(at);
      if (c === charGt) {
        callbacks.onopentagend(at);
        return this.elementContent(at + 1, endTag);
      }
      if (c === charSlash) {
        let next = at + 1;
        while (next < length && isWhitespace(html.charCodeAt(next))) next++;
        if (next === length) {
          // The Tokenizer reports text from its section start, -1 here (the Parser's slice of
          // it is the page's last character).
          callbacks.ontext(-1, length);
          return pageEnded;
        }
        if (html.charCodeAt(next) === charGt) {
          callbacks.onselfclosingtag(next);
          return this.elementContent(next + 1, endTag);
        }
        at = next;
      } else if (isWhitespace(c)) {
        at++;
      } else {
        at = this.attribute(at);
        if (at === pageEnded) return pageEnded;
      }
    }
    return pageEnded;
  }

  /** One attribute, from its name's first character (taken whatever it is, even `=`). */
  private attribute(nameStart: number): number {
    const { html, length, callbacks } = this;
    let at = nameStart + 1;
    while (at < length) {
      const c = html.charCodeAt(at);
      if (c === charEq || isEndOfTagSection(c)) break;
      at++;
    }
    if (at === length) return pageEnded;
    callbacks.onattribname(nameStart, at);
    const nameEnd = at;
    for (; at < length; at++) {
      const c = html.charCodeAt(at);
      if (c === charEq) return this.attributeValue(at + 1);
      if (!isWhitespace(c)) {
        callbacks.onattribend(QuoteType.NoValue, nameEnd);
        return at;
      }
    }
    return pageEnded;
  }

  /** An attribute's value, from just after its `=`: quoted, or up to white space or `>`. */
  private attributeValue(from: number): number {
    const { html, length, callbacks } = this;
    let at = from;
    while (at < length && isWhitespace(html.charCodeAt(at))) at++;
    if (at === length) return pageEnded;
    const c = html.charCodeAt(at);
    if (c === charDoubleQuote || c === charSingleQuote) {
      const valueStart = at + 1;
      const quote = html.indexOf(c === charDoubleQuote ? '"' : "'", valueStart);
      if (quote === -1) {
        if (valueStart < length) callbacks.onattribdata(valueStart, length);
        return pageEnded;
      }
      callbacks.onattribdata(valueStart, quote);
      callbacks.onattribend(c === charDoubleQuote ? QuoteType.Double : QuoteType.Single, quote + 1);
      return quote + 1;
    }
    let end = at;
    while (end < length) {
      const next = html.charCodeAt(end);
      if (isWhitespace(next) || next === charGt) break;
      end++;
    }
    callbacks.onattribdata(at, end);
    if (end === length) return pageEnded;
    callbacks.onattribend(QuoteType.Unquoted, end);
    return end;
  }

  /** What follows a start tag's `>`: text, or the raw text of script, style, title … */
  private elementContent(at: number, endTag: Uint8Array | undefined): number {
    if (endTag === undefined) return at;
    if (endTag === endTags.plaintext) {
      // The rest of the page is text.
      if (at < this.length) this.callbacks.ontext(at, this.length);
      return pageEnded;
    }
    return this.rawText(at, endTag);
  }

  /**
   * Raw text up to its end tag, matched as the Tokenizer matches it. (Title and textarea text is
   * stepped through character by character, as the Tokenizer does to find their entities.)
   */
  private rawText(textStart: number, endTag: Uint8Array): number {
    const { html, length, callbacks } = this;
    const stepwise = endTag === endTags.title || endTag === endTags.textarea;
    let matched = 0;
    for (let at = textStart; at < length; at++) {
      const c = html.charCodeAt(at);
      if (matched === endTag.length) {
        if (isEndOfTagSection(c)) {
          const textEnd = at - endTag.length;
          if (textStart < textEnd) callbacks.ontext(textStart, textEnd);
          callbacks.onclosetag(textEnd + 2, at);
          return this.afterEndTagName(at);
        }
        matched = 0;
      }
      if ((c | 0x20) === endTag[matched]) {
        matched++;
      } else if (matched === 0) {
        if (stepwise) continue;
        const lt = html.indexOf('<', at + 1);
        if (lt === -1) break;
        at = lt;
        matched = 1;
      } else {
        matched = Number(c === charLt);
      }
    }
    if (textStart < length) callbacks.ontext(textStart, length);
    return pageEnded;
  }

  /** `</name …>`, from its `<`. */
  private endTag(lt: number): number {
    const { html, length, callbacks } = this;
    const nameStart = lt + 2;
    if (nameStart === length) {
      callbacks.ontext(lt, length);
      return pageEnded;
    }
    const c = html.charCodeAt(nameStart);
    if (c === charGt) return nameStart + 1; // `</>` is nothing
    // `</ …>`, `</3>` … are comments.
    if (!isAsciiAlpha(c)) return this.bogusComment(nameStart, nameStart);
    const nameEnd = this.endOfTagSection(nameStart + 1);
    if (nameEnd === length) return pageEnded;
    callbacks.onclosetag(nameStart, nameEnd);
    return this.afterEndTagName(nameEnd);
  }

  /** The rest of an end tag after its name: skipped to its `>`. */
  private afterEndTagName(at: number): number {
    const gt = this.html.indexOf('>', at);
    if (gt !== -1) return gt + 1;
    // The Tokenizer reports text from its section start, -1 here (as above).
    this.callbacks.ontext(-1, this.length);
    return pageEnded;
  }

  /** `<!…`, from just after the `!`: a comment, CDATA, a doctype or a bogus comment. */
  private markupDeclaration(start: number): number {
    const { html, length, callbacks } = this;
    if (start === length) {
      callbacks.oncomment(start, length, 0);
      return pageEnded;
    }
    const c = html.charCodeAt(start);
    if (c === charOpeningSquareBracket) return this.cdata(start);
    if ((c | 0x20) === charLowerD) return this.doctype(start);
    if (c === charDash) return this.commentStart(start);
    return this.bogusComment(start, start); // `<!x…>`, and `<!>` is an empty one
  }

  /** `<![CDATA[…]]>`, from the `[`; anything else after `<![` is a bogus comment. */
  private cdata(start: number): number {
    const { html, length } = this;
    let matched = 0;
    for (let at = start + 1; at < length; at++) {
      if (html.charCodeAt(at) !== cdataStart[matched]) return this.bogusComment(start, at);
      if (++matched === cdataStart.length) return this.commentLike(at + 1, cdataEnd);
    }
    this.callbacks.oncomment(start, length, 0);
    return pageEnded;
  }

  /** `<!doctype …>`, from the `d`; a name other than doctype makes a bogus comment. */
  private doctype(start: number): number {
    const { html, length, callbacks } = this;
    let matched = 1;
    for (let at = start + 1; at < length; at++) {
      const c = html.charCodeAt(at);
      if (matched === doctype.length) {
        const gt = html.indexOf('>', at);
        if (gt === -1) return pageEnded; // a cut-off doctype is dropped
        callbacks.ondeclaration(start, gt);
        return gt + 1;
      }
      if ((c | 0x20) !== doctype[matched]) return this.bogusComment(start, at);
      matched++;
    }
    if (matched !== doctype.length) callbacks.oncomment(start, length, 0);
    return pageEnded;
  }

  /** `<!-`, from the `-`: a comment if another `-` follows. */
  private commentStart(start: number): number {
    const { html, length, callbacks } = this;
    const at = start + 1;
    if (at === length) {
      callbacks.oncomment(start, length, 0);
      return pageEnded;
    }
    if (html.charCodeAt(at) === charDash) return this.commentLike(at + 1, commentEnd);
    return this.bogusComment(start, at);
  }

  /**
   * A comment's or CDATA section's content from `start`, up to `-->` (or `--!>`, or an abrupt
   * `<!-->` / `<!--->`) or `]]>`.
   */
  private commentLike(start: number, end: Uint8Array): number {
    const { html, length, callbacks } = this;
    const isComment = end === commentEnd;
    let matched = 0;
    for (let at = start; at < length; at++) {
      const c = html.charCodeAt(at);
      if (isComment && matched <= 1 && at === start + matched && c === charGt) {
        callbacks.oncomment(start, at, matched);
        return at + 1;
      } else if (isComment && matched === 2 && c === charGt) {
        callbacks.oncomment(start, at, 2);
        return at + 1;
      } else if (isComment && matched === 3 && c !== charGt) {
        matched = Number(c === charDash);
      } else if (c === end[matched]) {
        if (++matched === end.length) {
          if (isComment) callbacks.oncomment(start, at, 3);
          else callbacks.oncdata(start, at, 2);
          return at + 1;
        }
      } else if (matched === 0) {
        const next = html.indexOf(isComment ? '-' : ']', at + 1);
        if (next === -1) break;
        at = next;
        matched = 1;
      } else if (c !== end[matched - 1]) {
        matched = 0;
      }
    }
    // Cut off by the end of the page: a comment all the same, CDATA (in HTML) from its `[`.
    if (isComment) callbacks.oncomment(start, length, Math.min(matched, 3));
    else callbacks.oncomment(start - cdataStart.length - 1, length, 0);
    return pageEnded;
  }

  /** A bogus comment (`<?…>`, `<!x…>`, `</ …>`) from `start`, up to the first `>` from `from`. */
  private bogusComment(start: number, from: number): number {
    const gt = this.html.indexOf('>', from);
    if (gt === -1) {
      this.callbacks.oncomment(start, this.length, 0);
      return pageEnded;
    }
    this.callbacks.oncomment(start, gt, 0);
    return gt + 1;
  }

  /** The first `/`, `>` or white space from `at`, or the page's length. */
  private endOfTagSection(at: number): number {
    const { html, length } = this;
    while (at < length && !isEndOfTagSection(html.charCodeAt(at))) at++;
    return at;
  }
}
