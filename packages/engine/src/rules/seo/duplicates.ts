import type { SiteCollector } from '../built-in-rule.js';
import { detached } from '../chars.js';
import { collapse } from '../dom.js';
import type { ParsedPage } from '../page.js';
import type { SiteLocation, Spot } from '../rule-types.js';
import { declaresOtherCanonical } from './head-facts.js';

/**
 * Groups pages by a text (title, description) and, once the crawl is over, reports every page
 * of a group with more than one page. Only the location of each page is kept, never its HTML.
 */
export function duplicateTextCollector(
  what: string,
  find: (page: ParsedPage) => { text: string; spot: Spot } | undefined,
): SiteCollector {
  const groups = new Map<string, SiteLocation[]>();
  return {
    add(page) {
      if (page.input.statusCode >= 300 || declaresOtherCanonical(page)) return;
      const found = find(page);
      // Kept until the crawl ends: a copy, not a view into the page's source.
      const key = found ? detached(collapse(found.text).toLowerCase()) : '';
      if (!found || key === '') return;
      const group = groups.get(key);
      const location = page.locate(found.spot);
      if (group) group.push(location);
      else groups.set(key, [location]);
    },
    finish(report) {
      for (const group of groups.values()) {
        if (group.length < 2) continue;
        for (const location of group) {
          const others = group.filter((other) => other !== location).map((other) => other.url);
          const listed = others.slice(0, 3).join(', ') + (others.length > 3 ? ', …' : '');
          report(location, `Same ${what} as ${others.length} other page(s): ${listed}`);
        }
      }
    },
  };
}
