import { describe, expect, it } from 'vitest';
import { extractCssUrls } from './css-urls.js';

const found = (css: string, limit?: number) =>
  extractCssUrls(css, limit).map(({ url, offset, isImport }) => [url, offset, isImport]);

describe('extractCssUrls', () => {
  it('reads @import in its three forms, at the position of the URL', () => {
    const css = '@import "a.css";\n@import url(b.css) screen;\n@IMPORT url( \'c.css\' );';
    expect(found(css)).toEqual([
      ['a.css', 8, true],
      ['b.css', 25, true],
      ['c.css', 52, true],
    ]);
  });

  it('reads url(), src() and image-set() with escapes decoded as a browser does', () => {
    const css =
      '@font-face { src: url("f\\2e woff2") format("woff2"), url(f\\ g.ttf) }\n' +
      'a { background: image-set("i.png" 1x, url(j.png) 2x); mask: src("m.svg") }';
    expect(found(css).map(([url, , isImport]) => [url, isImport])).toEqual([
      ['f.woff2', false],
      ['f g.ttf', false],
      ['i.png', false],
      ['j.png', false],
      ['m.svg', false],
    ]);
  });

  it('ignores comments, strings that are not URLs and empty url()', () => {
    const css =
      '/* url(no.png) @import "no.css"; */ a::before { content: "url(x.png)" } b { c: url() }';
    expect(found(css)).toEqual([]);
  });

  it('a string after a rule started is no import', () => {
    expect(found('@import "a.css"; p { font-family: "b.css" }')).toEqual([['a.css', 8, true]]);
  });

  it('stops at the limit', () => {
    const css = Array.from({ length: 50 }, (_, index) => `.c${index}{b:url(${index}.png)}`).join(
      '',
    );
    expect(found(css, 3).map(([url]) => url)).toEqual(['0.png', '1.png', '2.png']);
  });
});
