// What the HTML makes the browser do: how many files it fetches and how much data is inline.
import { RuleCategory } from '@linkaudit/core';
import type { PageRule } from '../built-in-rule.js';
import { textOf } from '../dom.js';
import { subresources, type Subresource } from '../resources.js';
import { thresholds } from '../thresholds.js';

export const tooManyRequests: PageRule = {
  id: 1002,
  slug: 'performance/too-many-requests',
  name: 'Too many requests',
  category: RuleCategory.WebPerformance,
  note: `The page loads more than ${thresholds.maxRequests} scripts, style sheets, images, frames and media files.`,
  prompt: 'Combine scripts and style sheets, lazy-load images below the fold, drop unused files.',
  check(page, report) {
    // One request per distinct address; a srcset counts once, the browser picks one candidate.
    const resources = subresources(page);
    const seen = new Set<string>();
    for (const resource of resources) {
      const url = requestUrl(resource);
      if (seen.has(url)) continue;
      seen.add(url);
      if (seen.size === thresholds.maxRequests + 1) {
        const total = new Set(resources.map(requestUrl)).size;
        report(resource.element, `${total} requests; this is number ${thresholds.maxRequests + 1}`);
        return;
      }
    }
  },
};

function requestUrl({ element, urls }: Subresource): string {
  return element.attribs.src?.trim() || (urls[0] ?? '');
}

// data: URIs in attributes and in url(…) of inline styles.
const dataUriInCss = /url\(\s*['"]?(data:[^)'"]*)/gi;

export const inlineDataUri: PageRule = {
  id: 1007,
  slug: 'performance/inline-data-uri',
  name: 'Large inline data URI',
  category: RuleCategory.WebPerformance,
  note: `A data: URI longer than ${thresholds.maxDataUriChars} characters is embedded in the HTML.`,
  prompt: 'Serve the image or font as its own file so it can be cached and loaded in parallel.',
  check(page, report) {
    if (!/data:/i.test(page.html)) return;
    for (const element of page.elements) {
      for (const [name, value] of Object.entries(element.attribs)) {
        const sizes = name === 'style' ? cssDataUris(value) : dataUri(value);
        for (const length of sizes) report(element, `${name}: data URI of ${length} characters`);
      }
      if (element.name === 'style') {
        for (const length of cssDataUris(textOf(element))) {
          report(element, `data URI of ${length} characters in a style sheet`);
        }
      }
    }
  },
};

function dataUri(value: string): number[] {
  const trimmed = value.trimStart();
  const isData = trimmed.length > thresholds.maxDataUriChars && /^data:/i.test(trimmed);
  return isData ? [trimmed.length] : [];
}

function cssDataUris(css: string): number[] {
  if (css.length <= thresholds.maxDataUriChars) return [];
  return Array.from(css.matchAll(dataUriInCss), (match) => match[1]?.length ?? 0).filter(
    (length) => length > thresholds.maxDataUriChars,
  );
}

export const largeInlineCode: PageRule = {
  id: 1008,
  slug: 'performance/large-inline-code',
  name: 'Large inline script or style',
  category: RuleCategory.WebPerformance,
  note: `An inline <script> or <style> block is longer than ${thresholds.maxInlineBlockChars / 1000}k characters.`,
  prompt: 'Move large scripts and styles to external files the browser can cache across pages.',
  check(page, report) {
    for (const element of [...page.all('script'), ...page.all('style')]) {
      if (element.attribs.src !== undefined) continue;
      const length = textOf(element).length;
      if (length > thresholds.maxInlineBlockChars) {
        report(element, `Inline <${element.name}> of ${length} characters`);
      }
    }
  },
};
