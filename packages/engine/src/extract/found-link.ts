import type { LinkKind } from '../events.js';

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
}

/** What one pass over a page's HTML yields. */
export interface ExtractedPage {
  links: FoundLink[];
  /** The first `<base href>`, as written. */
  baseHref?: string;
  title?: string;
  /** Values of `id` and `a[name]` (kept for anchor checks). */
  anchors?: string[];
}
