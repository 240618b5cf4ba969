import { describe, expect, it } from 'vitest';
import { textOf } from './dom.js';
import { ParsedPage } from './page.js';
import { ScanServices } from './services.js';
import { pageInput } from './test-support/rule-test.js';

const parse = (html: string, url = 'https://example.com/shop/tools') =>
  new ParsedPage(pageInput(html, { url }), new ScanServices());

describe('parsed page', () => {
  it('decodes character references once, in attributes and text, as a browser does', () => {
    const page = parse(
      '<title>Fish &amp;amp; chips</title><img alt="Fish &amp;amp; chips" title="a&lt;b&nbsp;c">' +
        '<p>1 &lt; 2 &copy; &nbps;</p><script>a &amp;&amp; b</script><textarea>x &gt; y</textarea>',
    );
    expect(page.first('img')?.attribs).toEqual({ alt: 'Fish &amp; chips', title: 'a<b\u00a0c' });
    expect(textOf(page.first('title')!)).toBe('Fish &amp; chips');
    expect(textOf(page.first('p')!)).toBe('1 < 2 © &nbps;');
    expect(textOf(page.first('script')!)).toBe('a &amp;&amp; b');
    expect(textOf(page.first('textarea')!)).toBe('x > y');
  });

  it('lists elements in document order with their depth and where their start tag ends', () => {
    const html = '<html><body><div class="a">\n<p>x</p></div></body></html>';
    const page = parse(html);
    expect(page.elements.map((element) => [element.name, element.depth])).toEqual([
      ['html', 1],
      ['body', 2],
      ['div', 3],
      ['p', 4],
    ]);
    const div = page.first('div')!;
    expect(page.startTag(div)).toBe('<div class="a">');
    expect(page.position(page.first('p')!.startIndex!)).toEqual({ line: 2, column: 1 });
  });

  it('resolves addresses against <base href> and the page URL', () => {
    expect(parse('<p>x</p>').resolve('../a.png')?.href).toBe('https://example.com/a.png');
    const based = parse('<base href="https://cdn.example.com/v2/"><p>x</p>');
    expect(based.resolve('a.png')?.href).toBe('https://cdn.example.com/v2/a.png');
    expect(parse('<p>x</p>', 'not a url').resolve('a.png')).toBeUndefined();
  });

  it('makes snippets of at most 120 characters with white space collapsed', () => {
    const page = parse(`<p>\n\n  spaced   out\n</p>${'x'.repeat(300)}`);
    expect(page.snippet(page.span(page.first('p')!))).toBe('<p> spaced out </p>');
    expect(page.snippet(page.span(0))).toHaveLength(120);
  });

  it('keeps every character of a snippet, Latin-1 or wider', () => {
    const texts = [
      '<p>Caf\u00e9 \u00a9 2024, na\u00efve \u00ff\u0080</p>', // Latin-1 beyond ASCII
      '<p>\u65e5\u672c\u8a9e\u306e\u30da\u30fc\u30b8 \u2014 \u20ac5</p>', // CJK, dash, euro
      '<p>Smile \ud83d\ude00 \u0100</p>', // a surrogate pair, the first code unit past Latin-1
    ];
    for (const text of texts) {
      const page = parse(text);
      expect(page.snippet(page.span(page.first('p')!))).toBe(text);
    }
    // Spans that differ only in a wide character at the end: the scratch space holds no leftovers.
    const page = parse('<p>\u00e9\u00e9\u00e9\u4e2d</p>');
    expect(page.snippet({ start: 3, end: 7 })).toBe('\u00e9\u00e9\u00e9\u4e2d');
    expect(page.snippet({ start: 3, end: 6 })).toBe('\u00e9\u00e9\u00e9');
  });
});
