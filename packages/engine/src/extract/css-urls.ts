import { string as cssString, tokenize, tokenTypes, url as cssUrl } from 'css-tree';
import type { LinkKind } from './found-link.js';

/** A URL referenced from CSS, with its character offset inside the CSS text. */
export interface CssUrl {
  url: string;
  offset: number;
  isImport: boolean;
}

/** Functions whose string arguments are URLs: `url("x")`, `src("x")`, `image-set("x" 1x)`. */
const urlFunctions = new Set(['url', 'src']);
const imageSetFunctions = new Set(['image-set', '-webkit-image-set']);
/** Whether the text can hold a reference at all: most style attributes and rules do not. */
const mayReference = /url\(|src\(|image-set\(|@import/i;

const imageExtension = /\.(?:png|jpe?g|gif|webp|avif|svg|ico|bmp|tiff?)(?:[?#]|$)/i;

/** The link kind of a CSS reference: an import is a stylesheet, an image by its extension. */
export function cssKind(url: string, isImport: boolean): LinkKind {
  if (isImport) return 'stylesheet';
  return imageExtension.test(url) ? 'image' : 'other';
}

/** Every `url()` and `@import` of the CSS, in order (see forEachCssUrl); at most `limit`. */
export function extractCssUrls(css: string, limit = Number.POSITIVE_INFINITY): CssUrl[] {
  const urls: CssUrl[] = [];
  forEachCssUrl(css, (url, offset, isImport) => {
    if (urls.length < limit) urls.push({ url, offset, isImport });
  });
  return urls;
}

/**
 * Hands over every `url()` and `@import` of a stylesheet, `<style>` block or style attribute, in
 * order, each at the offset of its URL (the `url(` or the string). The text is read by css-tree's
 * tokenizer (CSS Syntax Level 3): comments, escapes and strings are what a browser makes of them,
 * and no tree is built, so a stylesheet of megabytes costs no more memory than its text.
 */
export function forEachCssUrl(
  css: string,
  visit: (url: string, offset: number, isImport: boolean) => void,
): void {
  if (!mayReference.test(css)) return;
  /** Open functions and parentheses, innermost last ('' for a plain parenthesis). */
  const open: string[] = [];
  /** Offset of the innermost url()/src() function (a quoted URL is reported there). */
  const functionStarts: number[] = [];
  let afterImport = false;
  const add = (url: string, offset: number, isImport: boolean) => {
    if (url !== '') visit(url, offset, isImport);
  };
  tokenize(css, (type, start, end) => {
    switch (type) {
      case tokenTypes.WhiteSpace:
      case tokenTypes.Comment:
        return;
      case tokenTypes.AtKeyword:
        afterImport = css.slice(start, end).toLowerCase() === '@import';
        return;
      case tokenTypes.Url:
        add(cssUrl.decode(css.slice(start, end)).trim(), start, afterImport);
        break;
      case tokenTypes.Function:
        open.push(css.slice(start, end - 1).toLowerCase());
        functionStarts.push(start);
        if (afterImport && urlFunctions.has(open.at(-1)!)) return; // `@import url("x")`
        break;
      case tokenTypes.LeftParenthesis:
        open.push('');
        functionStarts.push(start);
        break;
      case tokenTypes.RightParenthesis:
        open.pop();
        functionStarts.pop();
        break;
      case tokenTypes.String:
        stringUrl(css.slice(start, end), start);
        break;
    }
    afterImport = false;
  });

  /** A string is a URL as the argument of url()/src(), in image-set(), or after @import. */
  function stringUrl(text: string, start: number): void {
    const inside = open.at(-1);
    if (inside !== undefined && urlFunctions.has(inside))
      add(cssString.decode(text).trim(), functionStarts.at(-1)!, afterImport);
    else if (inside !== undefined && imageSetFunctions.has(inside))
      add(cssString.decode(text).trim(), start, false);
    else if (afterImport && inside === undefined) add(cssString.decode(text).trim(), start, true);
  }
}
