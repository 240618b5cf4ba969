import { parseSrcset } from '../extract/srcset.js';
import { tokens } from './dom.js';
import type { PageElement, ParsedPage } from './page.js';

/** An element that makes the browser download something while it loads the page. */
export interface Subresource {
  element: PageElement;
  /** The addresses as written (a srcset gives several, of which the browser fetches one). */
  urls: readonly string[];
}

// Link relations whose target the browser downloads with the page.
const fetchedRelations = new Set([
  'stylesheet',
  'icon',
  'apple-touch-icon',
  'preload',
  'modulepreload',
  'manifest',
]);

const sourceAttributes: Record<string, readonly string[]> = {
  script: ['src'],
  img: ['src', 'srcset'],
  iframe: ['src'],
  frame: ['src'],
  video: ['src', 'poster'],
  audio: ['src'],
  source: ['src', 'srcset'],
  track: ['src'],
  embed: ['src'],
  object: ['data'],
};

const subresourcesKey = Symbol('subresources');
const noUrls: readonly string[] = [];

/** The page's subresources in document order, computed once per page. */
export function subresources(page: ParsedPage): readonly Subresource[] {
  return page.memo(subresourcesKey, () => {
    const found: Subresource[] = [];
    for (const element of page.elements) {
      const urls = urlsOf(element);
      if (urls.length > 0) found.push({ element, urls });
    }
    return found;
  });
}

function urlsOf(element: PageElement): readonly string[] {
  const { name, attribs } = element;
  if (name === 'link') {
    const fetched = tokens(element, 'rel').some((relation) => fetchedRelations.has(relation));
    return fetched && attribs.href?.trim() ? [attribs.href.trim()] : [];
  }
  if (name === 'input') {
    return attribs.type?.toLowerCase() === 'image' && attribs.src?.trim()
      ? [attribs.src.trim()]
      : [];
  }
  const attributes = sourceAttributes[name];
  if (!attributes) return noUrls; // most elements: no array made for them
  const urls: string[] = [];
  for (const attribute of attributes) {
    const value = attribs[attribute]?.trim();
    if (!value) continue;
    if (attribute === 'srcset') urls.push(...parseSrcset(value).map((candidate) => candidate.url));
    else urls.push(value);
  }
  return urls;
}
