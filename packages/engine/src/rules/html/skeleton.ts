// html-validate costs several milliseconds per page, fifty times the rules' budget. But pages of
// a site come from a few templates: they differ in their words and addresses, not in their
// markup. The skeleton is the page with exactly those parts replaced by a placeholder that
// html-validate judges the same way, so pages of one template share one skeleton and are
// validated once; each page maps the messages back to its own lines and columns.
import { isComment, isTag, isText, type ChildNode } from 'domhandler';
import type { PageElement, ParsedPage } from '../page.js';
import { scanAttributes } from '../source.js';

export interface Skeleton {
  source: string;
  /** The page offset a skeleton offset came from (inside a placeholder: its start). */
  toPage(offset: number): number;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

// Free-text attributes: html-validate only asks whether they are empty.
const freeText = new Set([
  'alt',
  'title',
  'placeholder',
  'aria-label',
  'aria-description',
  'class',
  'style',
  'content',
]);
// Addresses: html-validate checks they are non-empty and, for some, free of white space.
const addresses = new Set(['href', 'src', 'poster', 'cite', 'action', 'formaction']);
const rawTextElements = new Set(['script', 'style']);
// A text or value with `&` is replaced only when each `&` starts a numeric reference or one of
// these common named ones; anything else (a bare `&`, `&nbps;`) is html-validate's to judge.
const commonNames =
  'amp lt gt quot apos nbsp copy reg trade hellip mdash ndash lsquo rsquo ldquo rdquo laquo ' +
  'raquo bull middot times euro pound yen cent deg shy sect para zwnj zwj';
const knownReferences = new RegExp(
  `&(?:#\\d{1,7}|#[xX][0-9a-fA-F]{1,6}|${commonNames.split(' ').join('|')});`,
  'g',
);
const onlyKnownReferences = (raw: string): boolean =>
  !raw.replace(knownReferences, '').includes('&');

function placeholderFor(raw: string, kind: 'text' | 'free' | 'address'): string | undefined {
  if (!/\S/.test(raw)) return kind === 'text' && raw !== '' ? ' ' : undefined;
  if (kind === 'address' && /\s/.test(raw)) return undefined;
  if (kind === 'text' && (raw.includes('<') || raw.includes('>'))) return undefined;
  return raw.includes('&') && !onlyKnownReferences(raw) ? undefined : 'x';
}

function attributeEdits(page: ParsedPage, element: PageElement, edits: Edit[]): void {
  const names = Object.keys(element.attribs);
  const worth = names.some(
    (name) => freeText.has(name) || addresses.has(name) || name.startsWith('data-'),
  );
  if (!worth) return;
  for (const span of scanAttributes(page.html, element.startIndex ?? 0, element.tagEnd)) {
    if (span.quote === '' || span.valueEnd <= span.valueStart) continue;
    const free = freeText.has(span.name) || span.name.startsWith('data-');
    if (!free && !addresses.has(span.name)) continue;
    const raw = page.html.slice(span.valueStart, span.valueEnd);
    const text = placeholderFor(raw, free ? 'free' : 'address');
    if (text !== undefined) edits.push({ start: span.valueStart, end: span.valueEnd, text });
  }
}

function nodeEdit(page: ParsedPage, node: ChildNode, edits: Edit[]): void {
  const start = node.startIndex ?? 0;
  const end = (node.endIndex ?? start) + 1;
  if (isText(node)) {
    const raw = page.html.slice(start, end);
    const rawText = node.parent && isTag(node.parent) && rawTextElements.has(node.parent.name);
    const text = rawText ? (/\S/.test(raw) ? 'x' : ' ') : placeholderFor(raw, 'text');
    if (text !== undefined && raw !== '') edits.push({ start, end, text });
  } else if (isComment(node)) {
    // Comments carry timestamps and cache ids; conditional comments and html-validate
    // directives ([...]) stay as written.
    const raw = page.html.slice(start, end);
    if (raw.startsWith('<!--') && raw.endsWith('-->') && !raw.includes('[') && raw.length > 8) {
      edits.push({ start: start + 4, end: end - 3, text: 'x' });
    }
  } else if (isTag(node)) {
    attributeEdits(page, node as PageElement, edits);
  }
}

export function buildSkeleton(page: ParsedPage): Skeleton {
  const edits: Edit[] = [];
  for (const node of page.nodes) nodeEdit(page, node, edits);
  const html = page.html;
  // Segment i starts at skeletonStarts[i] in the skeleton and pageStarts[i] in the page; odd
  // segments are placeholders, even ones copied text.
  const skeletonStarts: number[] = [];
  const pageStarts: number[] = [];
  let source = '';
  let copied = 0;
  for (const edit of edits) {
    if (edit.start < copied) continue; // overlapping edits cannot happen; be safe anyway
    skeletonStarts.push(source.length);
    pageStarts.push(copied);
    source += html.slice(copied, edit.start);
    skeletonStarts.push(source.length);
    pageStarts.push(edit.start);
    source += edit.text;
    copied = edit.end;
  }
  skeletonStarts.push(source.length);
  pageStarts.push(copied);
  source += html.slice(copied);
  return { source, toPage: (offset) => mapOffset(offset, skeletonStarts, pageStarts) };
}

function mapOffset(offset: number, skeletonStarts: number[], pageStarts: number[]): number {
  let low = 0;
  let high = skeletonStarts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if ((skeletonStarts[middle] ?? 0) <= offset) low = middle;
    else high = middle - 1;
  }
  const pageStart = pageStarts[low] ?? 0;
  const copiedSegment = low % 2 === 0;
  return copiedSegment ? pageStart + offset - (skeletonStarts[low] ?? 0) : pageStart;
}
