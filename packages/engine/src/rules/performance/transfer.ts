// How the page itself travelled: its size, compression, caching headers and redirects.
import { RuleCategory } from '@linkaudit/core';
import type { PageRule } from '../built-in-rule.js';
import type { RulePageInput } from '../rule-types.js';
import { thresholds } from '../thresholds.js';

/** A response header as one string (repeated headers joined with commas). */
export function header(input: RulePageInput, name: string): string | undefined {
  const value = input.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`;

export const pageWeight: PageRule = {
  id: 1001,
  slug: 'performance/page-weight',
  name: 'HTML page too large',
  category: RuleCategory.WebPerformance,
  note: `The page's HTML alone is larger than ${kib(thresholds.maxHtmlBytes)}.`,
  prompt: 'Move inline data, scripts and styles to files and split very long pages.',
  check(page, report) {
    const { bytes } = page.input;
    if (bytes > thresholds.maxHtmlBytes) {
      report(
        page.first('html') ?? 0,
        `HTML is ${kib(bytes)} (limit ${kib(thresholds.maxHtmlBytes)})`,
      );
    }
  },
};

export const uncompressedResponse: PageRule = {
  id: 1003,
  slug: 'performance/uncompressed-response',
  name: 'Page served without compression',
  category: RuleCategory.WebPerformance,
  note: 'The HTML was sent without gzip, Brotli or zstd compression.',
  prompt: 'Turn on gzip or Brotli compression for text responses on the web server or CDN.',
  check(page, report) {
    const { bytes, compressed } = page.input;
    if (!compressed && bytes >= thresholds.minCompressibleBytes) {
      report(page.first('html') ?? 0, `${kib(bytes)} sent without Content-Encoding`);
    }
  },
};

export const missingCacheHeaders: PageRule = {
  id: 1004,
  slug: 'performance/missing-cache-headers',
  name: 'No caching headers',
  category: RuleCategory.WebPerformance,
  note: 'The response has none of Cache-Control, Expires, ETag or Last-Modified.',
  prompt: 'Send Cache-Control, and an ETag or Last-Modified so browsers can revalidate cheaply.',
  check(page, report) {
    const names = ['cache-control', 'expires', 'etag', 'last-modified'];
    if (names.every((name) => !header(page.input, name))) {
      report(page.first('html') ?? 0, 'No Cache-Control, Expires, ETag or Last-Modified header');
    }
  },
};

export const redirects: PageRule = {
  id: 1009,
  slug: 'performance/redirects',
  name: 'Reached through redirects',
  category: RuleCategory.WebPerformance,
  note: 'The page was reached through a redirect, or links to internal addresses that redirect.',
  prompt: 'Link straight to the final address so visitors skip the extra round trips.',
  check(page, report) {
    const chain = page.input.redirects;
    // A typed start address commonly redirects once to the canonical origin (http → https,
    // example.com → www.example.com); that hop is not something a link on the site can fix.
    const expected = page.input.isStartPage && chain.length === 1;
    if (chain.length > 0 && !expected) {
      const hops = chain.map((hop) => `${hop.url} (${hop.statusCode})`).join(' → ');
      report(page.first('html') ?? 0, `Reached through ${hops} → ${page.input.url}`);
    }
    const redirecting = page.input.facts?.redirectingLinks;
    if (!redirecting || redirecting.size === 0) return;
    for (const link of page.all('a')) {
      const target = link.attribs.href ? page.resolve(link.attribs.href) : undefined;
      if (!target) continue;
      target.hash = '';
      if (redirecting.has(target.href)) report(link, `${target.href} redirects`);
    }
  },
};
