// Signals that keep a page out of search results or send crawlers elsewhere.
import { RuleCategory } from '@linkaudit/core';
import type { PageRule } from '../built-in-rule.js';
import { attr } from '../dom.js';
import { header } from '../performance/transfer.js';

const robotsNames = new Set(['robots', 'googlebot', 'bingbot']);
const noindex = /(?:^|[\s,:])(?:noindex|none)(?:$|[\s,])/i;

export const noindexFound: PageRule = {
  id: 4013,
  slug: 'seo/noindex',
  name: 'Page blocked from indexing',
  category: RuleCategory.Seo,
  note: 'A robots meta tag or X-Robots-Tag header tells search engines not to index the page.',
  prompt: 'Remove noindex if the page should appear in search results.',
  check(page, report) {
    for (const meta of page.all('meta')) {
      const name = attr(meta, 'name')?.toLowerCase() ?? '';
      if (robotsNames.has(name) && noindex.test(meta.attribs.content ?? '')) report(meta);
    }
    const robotsHeader = header(page.input, 'x-robots-tag');
    if (robotsHeader && noindex.test(robotsHeader)) {
      report(page.first('html') ?? 0, `X-Robots-Tag: ${robotsHeader}`);
    }
  },
};

export const metaRefresh: PageRule = {
  id: 4016,
  slug: 'seo/meta-refresh',
  name: 'Meta refresh',
  category: RuleCategory.Seo,
  note: 'The page reloads or redirects itself with <meta http-equiv="refresh">.',
  prompt: 'Redirect with an HTTP 301 on the server instead; do not auto-reload pages.',
  check(page, report) {
    for (const meta of page.all('meta')) {
      if (attr(meta, 'http-equiv')?.toLowerCase() !== 'refresh') continue;
      const content = meta.attribs.content ?? '';
      report(meta, /url\s*=/i.test(content) ? 'Redirects with meta refresh' : 'Reloads itself');
    }
  },
};
