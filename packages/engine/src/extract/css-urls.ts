/** A URL referenced from CSS, with its character offset inside the CSS text. */
export interface CssUrl {
  url: string;
  offset: number;
  isImport: boolean;
}

// url(...) with optional quotes, and @import "..." without url().
const cssUrlPattern =
  /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s'"]*))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')/gi;
const commentPattern = /\/\*[\s\S]*?\*\//g;

/** Every `url()` and `@import` of a style sheet or style attribute, in order. */
export function extractCssUrls(css: string): CssUrl[] {
  if (!/url\(|@import/i.test(css)) return [];
  // Blank out comments (same length) so offsets stay true and commented-out URLs are ignored.
  const text = css.replace(commentPattern, (comment) => ' '.repeat(comment.length));
  const urls: CssUrl[] = [];
  for (const match of text.matchAll(cssUrlPattern)) {
    const importUrl = match[4] ?? match[5];
    const url = (match[1] ?? match[2] ?? match[3] ?? importUrl ?? '').trim();
    if (!url) continue;
    // `@import url(x.css)` is an import too: look at what stands just before url(.
    const before = text.slice(Math.max(0, match.index - 16), match.index).trimEnd();
    const isImport = importUrl !== undefined || /@import$/i.test(before);
    urls.push({ url, offset: match.index, isImport });
  }
  return urls;
}
