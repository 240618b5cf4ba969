// The site's own vocabulary, learnt during the scan. A word the dictionary does not know is the
// site's term, not a misspelling, when the site uses it as one: on many pages, in a navigation
// link ("Prev"), in code (`stdout`), or in headings and outside them on more than one page. Whether a word is
// a term is known only when the crawl ends (the tenth page may be the first to use it in code),
// so the misspelling rules hold their findings here and `release` hands over, after the last
// page, those of words that did not prove to be terms. Memory is bounded: see the limits below.
import { detached } from '../chars.js';
import type { RuleViolation, SiteLocation } from '../rule-types.js';

/** Pages a word must appear on to count as the site's term. */
export const termPages = 5;
/** Findings held at most; a page that starts above it reports its findings at once. */
export const maxHeldFindings = 50_000;
/** Unknown words and code words tracked at most each (about 10 MB together). */
const maxWords = 100_000;

const inHeading = 1;
const outsideHeadings = 2;
const inNavigation = 4;

interface WordStats {
  pages: number;
  /** The number of the last page the word was seen on. */
  lastPage: number;
  /** inHeading | outsideHeadings | inNavigation */
  flags: number;
}

interface HeldFinding {
  word: string;
  common: boolean;
  violation: RuleViolation;
}

export class SiteVocabulary {
  private readonly words = new Map<string, WordStats>();
  private readonly codeWords = new Set<string>();
  private held: HeldFinding[] = [];
  private page = 0;
  private holdingPage = true;

  /** A new page is read; its findings are held if the store has room. */
  startPage(): void {
    this.page++;
    this.holdingPage = this.held.length < maxHeldFindings;
  }

  /** Whether the findings of the page being read wait for the end of the scan. */
  get holding(): boolean {
    return this.holdingPage;
  }

  /**
   * An unknown word (lower-case) of the page's prose: in a heading or the title or not, in a
   * navigation link or not. (Booleans, not the text context: this service sits below texts.ts.)
   */
  unknown(word: string, heading: boolean, navigationLink: boolean): void {
    let stats = this.words.get(word);
    if (!stats) {
      if (this.words.size >= maxWords) return;
      stats = { pages: 0, lastPage: 0, flags: 0 };
      this.words.set(word, stats);
    }
    if (stats.lastPage !== this.page) {
      stats.lastPage = this.page;
      stats.pages++;
    }
    stats.flags |= heading ? inHeading : outsideHeadings;
    if (navigationLink) stats.flags |= inNavigation;
  }

  /** A word of code written in the prose (`activate.external.olinks`). */
  term(word: string): void {
    if (this.codeWords.size < maxWords) this.codeWords.add(word);
  }

  /**
   * The text `text[begin..end)` of code: its words (two ASCII letters or more) are the site's
   * terms. A loop over the characters, not a regular expression: a page of Vim's help is all
   * code, and a match object per word made this a sixth of all the rules' time there.
   */
  code(text: string, begin: number, end: number): void {
    let start = -1; // where the word being read began
    let upper = false; // whether it has a capital
    for (let at = begin; at <= end; at++) {
      const code = at < end ? text.charCodeAt(at) | 0 : 0;
      const isUpper = code >= 65 && code <= 90;
      if (isUpper || (code >= 97 && code <= 122)) {
        if (start === -1) {
          start = at;
          upper = false;
        }
        upper ||= isUpper;
      } else if (start !== -1) {
        if (at - start >= 2 && !this.addCodeWord(text.slice(start, at), upper)) return;
        start = -1;
      }
    }
  }

  /** Adds a word of code; false once the set is full. */
  private addCodeWord(written: string, upper: boolean): boolean {
    if (this.codeWords.size >= maxWords) return false;
    const word = upper ? written.toLowerCase() : written;
    // A long slice is a view into the page: a copy keeps the page from living as long as the set.
    if (!this.codeWords.has(word)) this.codeWords.add(word.length > 12 ? detached(word) : word);
    return this.codeWords.size < maxWords;
  }

  /**
   * Whether the word (lower-case) has proved to be the site's term so far, as written or as its
   * singular or possessive's stem ("structs", "doxygen's" for `struct`, `doxygen`).
   */
  isTerm(word: string, common = false): boolean {
    // A known common misspelling ("recieve") repeated in a site's template is still a slip: only
    // code (an API's `referer`) makes it the site's word.
    if (common) return this.codeWords.has(word);
    if (this.isTermAsWritten(word)) return true;
    if (/[^aeiou]ys$/.test(word)) return false; // "glossarys" is no plural of a term: a slip
    const stem = /(?:'s|s)$/.exec(word);
    return stem !== null && this.isTermAsWritten(word.slice(0, stem.index));
  }

  private isTermAsWritten(word: string): boolean {
    if (this.codeWords.has(word)) return true;
    const stats = this.words.get(word);
    if (!stats) return false;
    return (
      stats.pages >= termPages ||
      (stats.flags & inNavigation) !== 0 ||
      // In headings and outside them, on more than one page: what the site is about.
      ((stats.flags & (inHeading | outsideHeadings)) === (inHeading | outsideHeadings) &&
        stats.pages >= 2)
    );
  }

  /** Keeps a finding of `word` until the scan ends. */
  hold(
    word: string,
    common: boolean,
    ruleId: number,
    url: string,
    at: SiteLocation,
    message: string,
  ): void {
    const violation: RuleViolation = {
      ruleId,
      url,
      line: at.line,
      column: at.column,
      snippet: at.snippet,
      message,
    };
    this.held.push({ word, common, violation });
  }

  /** After the last page: the held findings of words that are no terms, in the order found. */
  release(into: RuleViolation[]): void {
    for (const { word, common, violation } of this.held) {
      if (!this.isTerm(word, common)) into.push(violation);
    }
    this.held = [];
  }
}
