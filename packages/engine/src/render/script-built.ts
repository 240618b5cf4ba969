import type { ExtractedPage } from '../extract/found-link.js';

/**
 * Navigation that documentation generators build with script: Doxygen's tree view
 * (navtree.js), Haddock's quick-jump index. Their pages have links in the HTML too, so the count
 * of links alone would not tell.
 */
const scriptNavigation = /(?:^|\/)(?:navtree|quick-jump)\.js(?:[?#]|$)/;

/** At most this many links a visitor follows, with a script: a single-page app's shell. */
const shellLinks = 1;

/**
 * Notes the crawled pages of a scan without rendering that look built by script, so the report
 * can say so and suggest rendering: a page that loads a script and has (almost) no links in its
 * HTML (a single-page app's shell: an empty root element and a bundle), or one that loads a
 * generator's script-built navigation. A hint, not a finding: it names how many pages and one.
 */
export class ScriptBuiltSigns {
  pages = 0;
  example: string | undefined;

  observe(page: ExtractedPage, url: string): void {
    if (!looksScriptBuilt(page)) return;
    this.pages++;
    this.example ??= url;
  }
}

export function looksScriptBuilt(page: ExtractedPage): boolean {
  let scripts = 0;
  let navigation = 0;
  for (const link of page.links) {
    if (link.element === 'script') {
      scripts++;
      if (scriptNavigation.test(link.raw)) return true;
    } else if (link.element === 'a' || link.element === 'area') {
      navigation++;
    }
  }
  return scripts > 0 && navigation <= shellLinks;
}
