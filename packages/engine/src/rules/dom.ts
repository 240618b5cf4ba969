import { isTag, isText, type AnyNode, type Element, type Text } from 'domhandler';
import { decodeHTML } from 'entities';
import { isWhiteSpace } from './chars.js';
import type { PageElement } from './page.js';

/** A text node's text with its character references decoded (the parser leaves them be). */
export function textData(node: Text): string {
  const rawText = node.parent && isTag(node.parent) && rawTextElements.has(node.parent.name);
  return !rawText && node.data.includes('&') ? decodeHTML(node.data) : node.data;
}
const rawTextElements = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes']);

/**
 * How many nodes a walk inside one element visits at most. Real elements hold a few dozen; a
 * broken page can nest thousands of links in one another, and walking each of them to the
 * bottom would take the square of that. Walks are loops, not recursion, for the same pages.
 */
const maxWalk = 2000;

/**
 * The decoded text inside a node, as a browser's textContent (script and style included), up
 * to `maxChars` characters and `maxWalk` nodes.
 */
export function textOf(node: AnyNode, maxChars = Number.POSITIVE_INFINITY): string {
  if (isText(node)) return textData(node);
  // Most links, titles and buttons hold one text: no walk needed.
  const only = 'children' in node && node.children.length === 1 ? node.children[0]! : undefined;
  if (only && isText(only)) return textData(only);
  let text = '';
  let visited = 0;
  const pending: AnyNode[] = [node];
  while (pending.length > 0 && text.length <= maxChars && visited++ < maxWalk) {
    const next = pending.pop()!;
    if (isText(next)) text += textData(next);
    else if ('children' in next)
      for (let i = next.children.length - 1; i >= 0; i--) pending.push(next.children[i]!);
  }
  return text;
}

/** Text with runs of white space collapsed and the ends trimmed, as it reads on screen. */
export function visibleText(node: AnyNode): string {
  return collapse(textOf(node));
}

export function collapse(text: string): string {
  return isCollapsed(text) ? text : text.replace(/\s+/g, ' ').trim();
}

/**
 * Whether a text reads as it is already: no white space at its ends, and single spaces between
 * words. Most link texts and titles are, and checking costs less than the replace it saves.
 */
function isCollapsed(text: string): boolean {
  let afterSpace = true; // white space at the start needs trimming
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 32) {
      if (afterSpace) return false;
      afterSpace = true;
    } else if (isWhiteSpace(code)) {
      return false;
    } else {
      afterSpace = false;
    }
  }
  return !afterSpace || text.length === 0;
}

/**
 * Whether some node inside `node` (itself included) passes `test`, visiting at most `maxWalk`
 * nodes and not entering those `enter` refuses. Undefined when the walk gave up.
 */
export function someInside(
  node: AnyNode,
  test: (node: AnyNode) => boolean,
  enter: (node: AnyNode) => boolean = () => true,
): boolean | undefined {
  let visited = 0;
  const pending: AnyNode[] = [node];
  while (pending.length > 0) {
    if (visited++ >= maxWalk) return undefined;
    const next = pending.pop()!;
    if (test(next)) return true;
    if (!('children' in next) || !enter(next)) continue;
    for (const child of next.children) pending.push(child);
  }
  return false;
}

/** The nearest ancestor with one of the names, or undefined. */
export function closest(node: AnyNode, names: ReadonlySet<string>): Element | undefined {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (isTag(parent) && names.has(parent.name)) return parent;
  }
  return undefined;
}

export function isInHead(element: PageElement): boolean {
  return element.inHead;
}

/** `<title>` and `<a>` inside inline SVG are not the HTML elements of the same name. */
export function isInSvg(element: PageElement): boolean {
  return element.inSvg;
}

/** An attribute's value trimmed, or undefined when it is absent. */
export function attr(element: Element, name: string): string | undefined {
  return element.attribs[name]?.trim();
}

export function hasAttr(element: Element, name: string): boolean {
  return element.attribs[name] !== undefined;
}

/** The space-separated, lower-case tokens of an attribute such as `rel`. */
export function tokens(element: Element, name: string): string[] {
  const value = element.attribs[name];
  return value ? value.toLowerCase().split(/\s+/).filter(Boolean) : [];
}

/** `<meta name="…">` (case-insensitive name) in document order. */
export function metaNamed(metas: readonly PageElement[], name: string): PageElement[] {
  return metas.filter((meta) => meta.attribs.name?.trim().toLowerCase() === name);
}

/** An accessible name given by attributes rather than content. */
export function hasLabelAttribute(element: Element): boolean {
  return Boolean(
    attr(element, 'aria-label') || attr(element, 'aria-labelledby') || attr(element, 'title'),
  );
}

// Elements whose content is code.
const codeNames = new Set(['code', 'pre', 'kbd', 'samp', 'var', 'tt', 'listing', 'xmp']);
// Class names documentation generators give code (DocBook, Sphinx, Pandoc, Doxygen, Texinfo,
// highlighters): `literal`, `highlight-python`, `sourceCode`, `programlisting` …
const codeClass =
  /(?:^|\s)(?:literal|highlight(?:-[\w-]+)?|code|sourcecode|programlisting|screen|synopsis|cmdsynopsis|funcsynopsis|command|option|parameter|filename|function|varname|envar|constant|classname|methodname|structname|structfield|userinput|computeroutput|prompt|replaceable|systemitem|fragment|sig|sig-name|descname|descclassname|pre|language-[\w-]+|lang-[\w-]+)(?=\s|$)/i;

/** Code by its element (`code`, `pre`, `kbd` …) or its class (`<span class="literal">`). */
export function isCode(element: Element): boolean {
  if (codeNames.has(element.name)) return true;
  const names = element.attribs.class;
  return names !== undefined && codeClass.test(names);
}

/** Whether the node or an element around it is code. */
export function isInCode(node: AnyNode): boolean {
  for (let at: AnyNode | null = node; at; at = at.parent) {
    if (isTag(at) && isCode(at)) return true;
  }
  return false;
}
