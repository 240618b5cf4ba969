/** What a link points at, by the element that holds it. */
export type LinkKind =
  'page' | 'image' | 'script' | 'stylesheet' | 'iframe' | 'media' | 'object' | 'icon' | 'other';

/** A link as found in a page, before it is resolved against the page's base URL. */
export interface FoundLink {
  /** The attribute value as written; '' when the required attribute is missing or empty. */
  raw: string;
  element: string;
  attribute: string;
  kind: LinkKind;
  line: number;
  column: number;
  /** The element needs this attribute and it is missing or empty (Source Attribute Missing). */
  missing?: boolean;
  /**
   * Only on the last link of a page past its link cap (page-link-cap.ts): the first link not
   * read, and how many were not read (it included).
   */
  linksNotRead?: number;
  /** Found only in the page as a browser rendered it (script made it): no place in the source. */
  rendered?: boolean;
}

/** What one pass over a page's HTML yields. */
export interface ExtractedPage {
  links: FoundLink[];
  /** The first `<base href>`, as written. */
  baseHref?: string;
  title?: string;
  /** Every `id` and `a[name]` in document order, with the position of its element. */
  anchors: PageAnchor[];
  /** `<meta name="robots">` (and googlebot) contents, lower-cased. */
  robotsMeta: string[];
  /** The first `<link rel="canonical">` href, as written. */
  canonicalHref?: string;
}

export interface PageAnchor {
  name: string;
  line: number;
  column: number;
}
