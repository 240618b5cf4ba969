import { describe, expect, it } from 'vitest';
import { linkHeaderLinks, parseLinkHeader } from './link-header.js';

describe('Link: headers', () => {
  it('splits entries at commas outside <> and quotes, parameters by name', () => {
    const entries = parseLinkHeader(
      '</a,b.css>; rel=stylesheet, </f.woff2>; rel="preload"; as=font; crossorigin, ' +
        '<https://x.test/>; rel="https://api.w.org/"; title="a, \\"b\\""',
    );
    expect(entries.map(({ target, params }) => [target, Object.fromEntries(params)])).toEqual([
      ['/a,b.css', { rel: 'stylesheet' }],
      ['/f.woff2', { rel: 'preload', as: 'font', crossorigin: '' }],
      ['https://x.test/', { rel: 'https://api.w.org/', title: 'a, "b"' }],
    ]);
  });

  it('keeps what a browser loads, resolved against the page, and no other relation', () => {
    const links = linkHeaderLinks(
      [
        '<style.css>; rel=stylesheet, <app.js>; rel=modulepreload, </i.png>; rel=preload; as=image',
        '</>; rel=preconnect, </wp-json/>; rel="https://api.w.org/", </icon.svg>; rel=icon',
      ],
      'http://site.test/docs/page.html',
    );
    expect(links.map((link) => [link.raw, link.kind, link.element, link.line])).toEqual([
      ['http://site.test/docs/style.css', 'stylesheet', 'header', 0],
      ['http://site.test/docs/app.js', 'script', 'header', 0],
      ['http://site.test/i.png', 'image', 'header', 0],
      ['http://site.test/icon.svg', 'icon', 'header', 0],
    ]);
  });
});
