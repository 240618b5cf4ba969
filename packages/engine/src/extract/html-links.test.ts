import { describe, expect, it } from 'vitest';
import { HtmlLinkExtractor } from './html-links.js';

function extract(html: string, chunkSize = 7) {
  const extractor = new HtmlLinkExtractor();
  for (let index = 0; index < html.length; index += chunkSize)
    extractor.write(html.slice(index, index + chunkSize));
  return extractor.end();
}

const summary = (html: string) =>
  extract(html).links.map((link) => [
    link.element,
    link.attribute,
    link.raw,
    link.kind,
    link.line,
    link.column,
    link.missing ?? false,
  ]);

describe('HtmlLinkExtractor', () => {
  it('finds links with the line and column of their element, across chunk boundaries', () => {
    const html =
      '<html>\n<body>\n  <a href="/one">1</a> <a href="two.html">2</a>\n\t<img src="x.png">\n</body>';
    expect(summary(html)).toEqual([
      ['a', 'href', '/one', 'page', 3, 3, false],
      ['a', 'href', 'two.html', 'page', 3, 24, false],
      ['img', 'src', 'x.png', 'image', 4, 2, false],
    ]);
  });

  it('reads every kind of link source', () => {
    const html = [
      '<link rel="stylesheet" href="s.css"><link rel="icon" href="f.ico"><link rel="canonical" href="/c">',
      '<link rel="preconnect" href="https://cdn.example"><link rel="dns-prefetch" href="//x.example">',
      '<script src="a.js"></script><script>var x = "<a href=no>";</script>',
      '<img src="i.png" srcset="i-1x.png 1x, i-2x.png 2x"><picture><source srcset="p.webp"><img src="p.png"></picture>',
      '<iframe src="f.html"></iframe><frame src="fr.html"><video src="v.mp4" poster="v.jpg"><source src="v.webm"><track src="t.vtt"></video>',
      '<audio src="a.mp3"></audio><object data="o.swf"></object><embed src="e.swf"><area href="ar.html">',
      '<meta http-equiv="refresh" content="5; url=/moved"><input type="image" src="btn.png">',
    ].join('\n');
    expect(
      extract(html).links.map(
        (link) => `${link.element}.${link.attribute}=${link.raw}:${link.kind}`,
      ),
    ).toEqual([
      'link.href=s.css:stylesheet',
      'link.href=f.ico:icon',
      'link.href=/c:page',
      'script.src=a.js:script',
      'img.srcset=i-1x.png:image',
      'img.srcset=i-2x.png:image',
      'img.src=i.png:image',
      'source.srcset=p.webp:image',
      'img.src=p.png:image',
      'iframe.src=f.html:iframe',
      'frame.src=fr.html:iframe',
      'video.src=v.mp4:media',
      'video.poster=v.jpg:image',
      'source.src=v.webm:media',
      'track.src=t.vtt:media',
      'audio.src=a.mp3:media',
      'object.data=o.swf:object',
      'embed.src=e.swf:object',
      'area.href=ar.html:page',
      'meta.content=/moved:page',
      'input.src=btn.png:image',
    ]);
  });

  it('marks required attributes that are missing or empty; an empty href is the page itself', () => {
    const html =
      '<a name="top">x</a><a href="">e</a><img><img src=" "><iframe></iframe><iframe srcdoc="<p>"></iframe><script src=""></script>';
    expect(
      summary(html).map(([element, attribute, raw, , , , missing]) => [
        element,
        attribute,
        raw,
        missing,
      ]),
    ).toEqual([
      ['a', 'href', '', false],
      ['img', 'src', '', true],
      ['img', 'src', '', true],
      ['iframe', 'src', '', true],
      ['script', 'src', '', true],
    ]);
  });

  it('finds CSS urls in style attributes and style blocks, at the URL (url( or the string)', () => {
    const html =
      '<div style="background: url(\'bg.png\')"></div>\n<style>\n@import "base.css";\nbody { background: url(/img/b.jpg) } /* url(no.png) */\n.f { src: url(font.woff2) }</style>';
    expect(summary(html)).toEqual([
      ['div', 'style', 'bg.png', 'image', 1, 1, false],
      ['style', 'css', 'base.css', 'stylesheet', 3, 9, false],
      ['style', 'css', '/img/b.jpg', 'image', 4, 20, false],
      ['style', 'css', 'font.woff2', 'other', 5, 11, false],
    ]);
  });

  it('keeps the first base href, the title and the anchors', () => {
    const page = extract(
      '<head><title> My\n Page </title><base href="/docs/"><base href="/other/"></head><h2 id="intro">x</h2><a name="end"></a>',
    );
    expect(page.baseHref).toBe('/docs/');
    expect(page.title).toBe('My Page');
    expect(page.anchors).toEqual([
      { name: 'intro', line: 2, column: 63 },
      { name: 'end', line: 2, column: 84 },
    ]);
  });

  it('reads robots meta and the canonical address', () => {
    const page = extract(
      '<meta name="ROBOTS" content="NoIndex, follow"><meta name=googlebot content=noarchive><link rel="canonical" href=" /c "><link rel=canonical href=/d>',
    );
    expect(page.robotsMeta).toEqual(['noindex, follow', 'noarchive']);
    expect(page.canonicalHref).toBe('/c');
  });

  it('decodes entities in attribute values and survives malformed HTML', () => {
    const html =
      '<a href="/search?a=1&amp;b=2">s</a><p class=x <a href=/unquoted>u</a> <div><a href=\'/single\'>x</div>< <a href="/after">';
    // `<p class=x <a href=…>` is one p tag with odd attributes, as browsers read it: no link there.
    expect(extract(html).links.map((link) => link.raw)).toEqual([
      '/search?a=1&b=2',
      '/single',
      '/after',
    ]);
    expect(
      extract('<div><a href=/unquoted>u<a href="/next"').links.map((link) => link.raw),
    ).toEqual(['/unquoted']);
  });
});
