import { ScanDepth } from '@linkaudit/core';
import { describe, expect, it } from 'vitest';
import { emptyResolvedLink, pageBase, resolveLink, urlOf } from './resolve-link.js';
import { SiteScope } from './site-scope.js';

const scope = new SiteScope(new URL('https://www.example.com/'), ScanDepth.Domain, false);

/** What the URL parser says, in the same shape; an empty query is dropped (`x?` is `x`). */
function byUrlParser(raw: string, baseUrl: string) {
  const parsed = new URL(raw, baseUrl);
  const fragment = parsed.hash;
  parsed.hash = '';
  const url = parsed.search === '' ? parsed.href.replace(/\?$/, '') : parsed.href;
  return { url, fragment, host: parsed.host, pathname: parsed.pathname };
}

describe('resolveLink', () => {
  const bases = [
    'https://www.example.com/docs/guide/page.html?x=1#top',
    'https://www.example.com/',
    'http://127.0.0.1:8080/a/b/',
    'https://User:Secret@www.example.com/private/area/',
    // An empty query or fragment leaves its `?` or `#` in the address but not in search or hash.
    'http://127.0.0.1:8080/library/x.html?',
    'http://127.0.0.1:8080/library/x.html#',
    'http://127.0.0.1:8080/library/x.html?#',
  ];
  const references = [
    'p2.html',
    '/s3/s17/p123.html',
    'sub/dir/',
    'img/photo_1-2~x.png',
    'p.html?a=1&b=two',
    'p.html#section-2',
    '/x#',
    'p.html?',
    '../up.html',
    '../../s0/s4/p196.html',
    '../../../../../../x.html',
    '.././a.html',
    './../b/',
    '.hidden.html',
    '...html',
    '../',
    './',
    '.',
    'a/..',
    './here.html',
    'a/./b.html',
    'a/../b.html',
    '..',
    '//cdn.example.org/lib.js',
    'HTTPS://Other.Example.ORG/Path',
    'p q.html',
    'caf%C3%A9.html',
    'p.html?q=a b',
    'p.html#a b',
    'ü.html',
    '?only=query',
    '#only-fragment',
    // A bare `#` or `?` is the page itself, with an empty fragment or query (WHATWG URL).
    '#',
    '?',
    '?#',
    '',
    '?#x',
    '/x?',
    '/x?#',
    '//cdn.example.org/lib.js?',
    'https://other.example.org#',
    '/path\\with\\backslashes',
  ];
  for (const baseUrl of bases) {
    it.each(references)(
      `resolves %j as the URL parser does (an empty query aside) against ${baseUrl}`,
      (raw) => {
        // A used object, as in a crawl: every field must be written, none left from before.
        const into = {
          prefix: 'x:',
          path: '/old',
          fragment: '#old',
          host: 'old',
          pathname: '/old',
          internal: true,
        };
        expect(resolveLink(raw, pageBase(new URL(baseUrl), scope), scope, into)).toBe('http');
        const { fragment, host, pathname } = into;
        expect({ url: urlOf(into), fragment, host, pathname }).toEqual(byUrlParser(raw, baseUrl));
      },
    );
  }

  it('knows other schemes and invalid references', () => {
    const base = pageBase(new URL(bases[0]!), scope);
    const into = emptyResolvedLink();
    expect(resolveLink('mailto:a@b.c', base, scope, into)).toBe('other-scheme');
    expect(into.prefix).toBe('mailto:a@b.c');
    expect(resolveLink('http://[bad', base, scope, into)).toBe('invalid');
  });

  it('tells internal links (www and scheme aside) from external ones', () => {
    const base = pageBase(new URL('https://www.example.com/a/'), scope);
    const internal = (raw: string) => {
      const into = emptyResolvedLink();
      return resolveLink(raw, base, scope, into) === 'http' && into.internal;
    };
    expect(
      ['b.html', '/c', 'http://example.com/d', 'https://WWW.example.com/e'].map(internal),
    ).toEqual([true, true, true, true]);
    expect(['https://cdn.example.com/f', 'https://example.com:8443/g'].map(internal)).toEqual([
      false,
      false,
    ]);
  });
});
