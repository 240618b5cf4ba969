// html-validate takes 50–100 µs per element, and a page of reference documentation holds
// thousands of elements written alike: Vim's help is <pre> text with `<a href="…">…</a>`
// between the words (177,000 elements on 152 pages, 11 s of html-validate, ×4 the crawl's
// whole CPU). In the skeleton (skeleton.ts) those links are the same characters, and
// html-validate judges each of them the same way: its messages about a piece of inline markup
// depend on the piece, its ancestors and nothing else, as long as
// - the piece is balanced: each of its elements has its end tag where it ends (or is void), so
//   the open elements after it are those before it; and so are its parent's other children
//   (all of them such pieces and plain text), so each copy starts where the first one did;
// - no rule compares it with its siblings or the rest of the document: only inline elements
//   that no element limits in number or order, or closes when they start, and only attributes
//   no rule looks up across the page (no id, for, form, name of a control …);
// - no comment inside could be an html-validate directive.
// So html-validate gets each parent's first copy of such a piece only, and the copies it did not
// see get the messages of the first, moved to where they stand. A piece is an element with the
// text right before it (which stays attached, so no two texts are joined by the fold).
import type { ChildNode, Element } from 'domhandler';
import { isTag, isText } from 'domhandler';
import type { AttributeTable, PageElement } from '../page-dom.js';
import type { Skeleton } from './skeleton.js';

/** Inline elements html-validate judges alone (html-validate-fold.test.ts checks its metadata). */
export const foldableTags = new Set(
  (
    'a abbr b bdi bdo big br cite code data dfn em font i kbd mark q s samp small span strike ' +
    'strong sub sup time tt u var wbr'
  ).split(' '),
);
/** Attributes no rule reads beyond their own element. `name` only on `<a>` (an old anchor). */
export const foldableAttributes = new Set(
  (
    'href class style title target rel lang dir hreflang type color face size translate ' +
    'datetime value cite'
  ).split(' '),
);
/** Parents whose children html-validate counts or orders (checked against its metadata too). */
export const countingParents = new Set(
  (
    'audio video details fieldset figure object picture select table html head hgroup ' +
    'colgroup thead tbody tfoot tr ruby'
  ).split(' '),
);
const voidTags = new Set(['br', 'wbr']);

/** What folding reads of a parsed page. */
export interface FoldSource {
  readonly html: string;
  readonly elements: readonly PageElement[];
  readonly attributes: AttributeTable;
}

/** A message at an offset of the skeleton html-validate was given. */
export interface Located {
  offset: number;
}

/** A copy left out: `length` characters at `at` in the skeleton, the same as those at `from`. */
interface LeftOut {
  at: number;
  from: number;
  length: number;
  /** How deep its parent is: copies inside a kept piece get their messages first. */
  depth: number;
}

/** The skeleton without the repeated pieces, and how to put their messages back. */
export interface FoldedSkeleton {
  readonly source: string;
  /** Messages of `source`, as they would be for the whole skeleton, in its order. */
  expand<T extends Located>(messages: readonly T[]): T[];
}

/** The folded skeleton, or undefined when nothing repeats (or the page has directives). */
export function foldSkeleton(page: FoldSource, skeleton: Skeleton): FoldedSkeleton | undefined {
  if (page.html.includes('[html-validate-')) return undefined;
  const source = skeleton.source;
  const leftOut = findCopies(page, skeleton, source);
  if (leftOut.length === 0) return undefined;
  return new Folded(source, leftOut);
}

function findCopies(page: FoldSource, skeleton: Skeleton, source: string): LeftOut[] {
  const mixed = mixedElements(page);
  const leftOut: LeftOut[] = [];
  const visit = (parent: PageElement, depth: number): void => {
    // In <head> html-validate closes the head at the first inline element; our parse does not.
    const folds = !mixed.has(parent) && !countingParents.has(parent.name) && !parent.inHead;
    const first = folds ? new Map<string, number>() : undefined;
    const children = parent.children;
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (!isTag(child)) continue;
      if (first) {
        const previous = i > 0 ? children[i - 1]! : undefined;
        const before = previous && isText(previous) ? previous : child;
        const start = skeleton.fromPage(before.startIndex ?? 0);
        const end = skeleton.fromPage((child.endIndex ?? 0) + 1);
        const text = source.slice(start, end);
        const from = first.get(text);
        if (from !== undefined) {
          leftOut.push({ at: start, from, length: end - start, depth });
          continue; // nothing inside a copy is looked at again
        }
        first.set(text, start);
      }
      visit(child as PageElement, depth + 1);
    }
  };
  for (const element of page.elements) if (element.depth === 1) visit(element, 1);
  return leftOut.sort((a, b) => a.at - b.at);
}

/**
 * The elements with a child that may not be folded (see the top of this file), or a comment, or
 * a text with a tag in it: their children stay as written. The others hold only foldable pieces.
 */
function mixedElements(page: FoldSource): Set<ChildNode> {
  const mixed = new Set<ChildNode>();
  const elements = page.elements;
  // Children come after their parents in document order: backwards, each is judged first.
  for (let i = elements.length - 1; i >= 0; i--) {
    const element = elements[i]!;
    if (hasOtherThanTags(page.html, element)) mixed.add(element);
    const foldable = !mixed.has(element) && isFoldable(page, element);
    if (!foldable && element.parent) mixed.add(element.parent);
  }
  return mixed;
}

/** A comment (a directive?) or a text with a stray tag in it (`x</i>y` is one text node). */
const hasOtherThanTags = (html: string, element: Element): boolean =>
  element.children.some((child) => (isText(child) ? !isPlainText(html, child) : !isTag(child)));

/** Text with no `<` in it: no tag our parser took in. */
function isPlainText(html: string, text: ChildNode): boolean {
  const next = html.indexOf('<', text.startIndex ?? 0);
  return next === -1 || next > (text.endIndex ?? 0);
}

function isFoldable(page: FoldSource, element: PageElement): boolean {
  const name = element.name;
  if (!foldableTags.has(name) || element.inSvg) return false;
  const { names } = page.attributes;
  const end = element.firstAttribute + element.attributeCount;
  for (let i = element.firstAttribute; i < end; i++) {
    const attribute = names[i]!;
    if (!foldableAttributes.has(attribute) && !(attribute === 'name' && name === 'a')) return false;
  }
  const html = page.html;
  if (voidTags.has(name)) return true;
  if (html.charCodeAt(element.tagEnd - 1) === 0x2f) return false; // `<b/>`: html-validate closes it
  return endsWithOwnEndTag(html, name, element.endIndex ?? 0);
}

/** Whether the element's end is its own end tag, `</name>` (an implied end is elsewhere). */
function endsWithOwnEndTag(html: string, name: string, end: number): boolean {
  if (html.charCodeAt(end) !== 0x3e) return false; // `>`
  const open = html.lastIndexOf('</', end);
  if (open === -1) return false;
  const written = html.slice(open + 2, end).trimEnd();
  return written.length === name.length && written.toLowerCase() === name;
}

class Folded implements FoldedSkeleton {
  readonly source: string;
  /** Where each left-out copy was cut, in `source`, and how much was cut before it. */
  private readonly cutAt: number[] = [];
  private readonly cutBefore: number[] = [];

  constructor(
    whole: string,
    private readonly leftOut: readonly LeftOut[],
  ) {
    const parts: string[] = [];
    let copied = 0;
    let cut = 0;
    for (const { at, length } of leftOut) {
      if (at < copied) continue; // inside a copy already left out (cannot happen: not visited)
      parts.push(whole.slice(copied, at));
      this.cutAt.push(at - cut);
      cut += length;
      this.cutBefore.push(cut);
      copied = at + length;
    }
    parts.push(whole.slice(copied));
    this.source = parts.join('');
  }

  expand<T extends Located>(messages: readonly T[]): T[] {
    let all = messages.map((message) => ({ ...message, offset: this.toWhole(message.offset) }));
    // Deepest copies first: a copy inside a kept piece gets its messages before that piece is
    // copied in turn.
    const depths = [...new Set(this.leftOut.map((copy) => copy.depth))].sort((a, b) => b - a);
    for (const depth of depths) {
      const sorted = stableByOffset(all);
      const added: T[] = [];
      for (const copy of this.leftOut) {
        if (copy.depth !== depth) continue;
        const shift = copy.at - copy.from;
        for (let i = firstAtOrAfter(sorted, copy.from); i < sorted.length; i++) {
          const message = sorted[i]!;
          if (message.offset >= copy.from + copy.length) break;
          added.push({ ...message, offset: message.offset + shift });
        }
      }
      all = sorted.concat(added);
    }
    return stableByOffset(all);
  }

  /** A `source` offset in the whole skeleton. */
  private toWhole(offset: number): number {
    // The last cut at or before the offset: what it left out lies before the offset.
    let low = 0;
    let high = this.cutAt.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.cutAt[middle]! <= offset) low = middle + 1;
      else high = middle;
    }
    return low === 0 ? offset : offset + this.cutBefore[low - 1]!;
  }
}

/** html-validate's order: by place, the order found kept among messages at one place. */
const stableByOffset = <T extends Located>(messages: T[]): T[] =>
  messages
    .map((message, index) => ({ message, index }))
    .sort((a, b) => a.message.offset - b.message.offset || a.index - b.index)
    .map(({ message }) => message);

function firstAtOrAfter(sorted: readonly Located[], offset: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]!.offset < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}
