import { describe, expect, it } from 'vitest';
import { MarkdownLinkExtractor } from './markdown-links.js';

function extract(lines: string[]) {
  const extractor = new MarkdownLinkExtractor();
  // (In two chunks: the text arrives as a stream.)
  const text = lines.join('\n');
  extractor.write(text.slice(0, 10));
  extractor.write(text.slice(10));
  return extractor.end();
}

describe('MarkdownLinkExtractor', () => {
  it('names headings as GitHub does: lower case, punctuation dropped, spaces to hyphens, repeats numbered', () => {
    const page = extract([
      '# Hello, World!',
      '## API: `scan()` & more',
      '## Hello, World!',
      '### Hello, World!',
      '## Ünïcode ✓ Straße',
      '## ![badge](b.svg) Badges_and-dashes',
      'Setext heading',
      '--------------',
    ]);
    expect(page.title).toBe('Hello, World!');
    expect(page.anchors).toEqual([
      { name: 'hello-world', line: 1, column: 1 },
      { name: 'api-scan--more', line: 2, column: 1 },
      { name: 'hello-world-1', line: 3, column: 1 },
      { name: 'hello-world-2', line: 4, column: 1 },
      { name: 'ünïcode--straße', line: 5, column: 1 },
      { name: '-badges_and-dashes', line: 6, column: 1 },
      { name: 'setext-heading', line: 7, column: 1 },
    ]);
  });

  it('finds links, images, reference definitions and autolinks at their line and column', () => {
    const page = extract([
      'See [the guide](docs/guide.md#start "Guide") and ![logo](img/logo.png).',
      '  - [ref link][r] and ![ref image][i], https://example.com/auto and <https://example.org/>',
      '',
      '| a | [in a table](t.md) |',
      '|---|---|',
      '',
      '[r]: other.md#x',
      '[i]: pic.png',
      '',
      '    [indented code](not-a-link.md)',
      '`[inline code](no.md)`',
    ]);
    const links = page.links.map(({ raw, element, attribute, kind, line, column }) => ({
      raw,
      element,
      attribute,
      kind,
      at: `${line}:${column}`,
    }));
    expect(links).toEqual([
      { raw: 'docs/guide.md#start', element: 'a', attribute: 'href', kind: 'page', at: '1:5' },
      { raw: 'img/logo.png', element: 'img', attribute: 'src', kind: 'image', at: '1:50' },
      {
        raw: 'https://example.com/auto',
        element: 'a',
        attribute: 'href',
        kind: 'page',
        at: '2:40',
      },
      { raw: 'https://example.org/', element: 'a', attribute: 'href', kind: 'page', at: '2:69' },
      { raw: 't.md', element: 'a', attribute: 'href', kind: 'page', at: '4:7' },
      { raw: 'other.md#x', element: 'a', attribute: 'href', kind: 'page', at: '7:1' },
      { raw: 'pic.png', element: 'img', attribute: 'src', kind: 'image', at: '8:1' },
    ]);
  });

  it('reads inline HTML: its links, ids and <a name> anchors at their own place, each name once', () => {
    const page = extract([
      '# Title',
      '',
      '<a name="title"></a>',
      '<p align="center">',
      '  <a name="top"></a><img src="banner.png"><a href="#top">up</a>',
      '</p>',
      'Text with <span id="inline-id">an id</span>.',
    ]);
    expect(page.anchors).toEqual([
      { name: 'title', line: 1, column: 1 },
      { name: 'top', line: 5, column: 3 },
      { name: 'inline-id', line: 7, column: 11 },
    ]);
    expect(
      page.links.map(({ raw, element, line, column }) => [raw, element, line, column]),
    ).toEqual([
      ['banner.png', 'img', 5, 21],
      ['#top', 'a', 5, 43],
    ]);
  });
});
