import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { AttributeSet, TagReader } from './tag-reader.js';

// The TagReader must see exactly the elements htmlparser2's Parser sees (names, offsets, wanted
// attributes, closes, text), only without copying what nobody reads. Both read the same
// documents, cut into chunks of many sizes, and their events are compared one by one.

const wanted = ['href', 'src', 'id', 'style', 'data-x', 'rel'] as const;
type Event = (string | number | Record<string, string>)[];

function withParser(html: string, chunkSize: number): Event[] {
  const events: Event[] = [];
  const parser: Parser = new Parser(
    {
      onopentag(name, attributes) {
        const picked: Record<string, string> = {};
        for (const key of wanted) if (attributes[key] !== undefined) picked[key] = attributes[key];
        events.push(['open', name.toLowerCase(), parser.startIndex, picked]);
      },
      onclosetag(name) {
        events.push(['close', name.toLowerCase()]);
      },
      ontext(text) {
        pushText(events, text, parser.startIndex);
      },
    },
    { decodeEntities: true },
  );
  for (let index = 0; index < html.length; index += chunkSize)
    parser.write(html.slice(index, index + chunkSize));
  parser.end();
  return events;
}

function withTagReader(html: string, chunkSize: number): Event[] {
  const events: Event[] = [];
  const reader = new TagReader(new AttributeSet(wanted), {
    openTag(name, start, attributes) {
      const picked: Record<string, string> = {};
      for (const [index, key] of wanted.entries()) {
        const value = attributes[index];
        if (value !== undefined) picked[key] = value;
      }
      events.push(['open', name.toLowerCase(), start, picked]);
    },
    closeTag(name) {
      events.push(['close', name.toLowerCase()]);
    },
    wantsText: () => true,
    text(text, start) {
      pushText(events, text, start);
    },
  });
  for (let index = 0; index < html.length; index += chunkSize)
    reader.write(html.slice(index, index + chunkSize));
  reader.end();
  return events;
}

/** Adjacent text pieces are one text (the two split text at entities and chunks differently). */
function pushText(events: Event[], text: string, start: number): void {
  const last = events.at(-1);
  if (last?.[0] === 'text') last[2] = (last[2] as string) + text;
  else events.push(['text', start, text]);
}

const tricky = [
  '<!DOCTYPE html><HTML LANG=en><Head><TITLE>A &amp; B</TITLE></head><BODY>',
  '<a HREF="/one" href="/two" ID=x>1</a><A href=/three/>3</A>',
  '<img src="a&amp;b.png?x=1&y=2&copy" data-x=\'q&quot;\'><IMAGE src=old.png>',
  '<form id=f1><form id=f2><input id=i></form></form>',
  '</p><p>one<p>two</br><li>a<li>b<table><tr><td>1<td>2</table>',
  '<svg><a href="#s"/><foreignObject><p id=in>t</p></foreignObject><title>svg title</title><path/></svg>',
  '<math><mi>x</mi><![CDATA[raw <a href=no>]]></math><![CDATA[comment in html]]>',
  '<script>var a = "<a href=no>"; </scr' + 'ipt><style>a{background:url(x.png)}</style>',
  '<textarea><a href=no></textarea><noscript><a href="/ns">n</a></noscript>',
  '<!-- <a href="commented"> --><?php echo 1 ?><a href="/after" rel=next>x</a>',
  '<div style="background: url(&quot;y.png&quot;)"><span>text &lt; more &#x41;&#66;</span>',
  '<a href = "/spaced" ><a href=\'/single\'><a href>empty</a><a>none</a>',
  '<picture><source srcset=a.webp><img src=b.png></div></picture><p>x',
  '<a href="/unterminated',
  '<p>unclosed <b>tags <i>at the end',
  '<title>t</title><style>unterminated style',
  '<a href="?a=1&amp;b=2&copy=3&notin;&notit;&amp=x">e</a><img src=\'&#x41;&#0;&amp\' data-x=&amp=1>',
  '<title>&lt;T&gt; &amp</title><textarea>&amp;<b>bold?</b></textarea><xmp>&amp;<i></xmp>',
  '<iframe>&amp;<p>raw</iframe><noscript>&amp;<a href="&#47;ns">n</a></noscript>',
  '<svg><title>&amp; svg</title><script>&lt;x</script><style>&amp;</style></svg>&am&#x41;',
  '<p>before<plaintext>&amp;<a href=x>all text</a>',
];

/** Seeded random documents built from pieces that stress the tree rules and the tokenizer. */
function randomDocuments(count: number, seed: number): string[] {
  let state = seed;
  const next = () => ((state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * 0.9999;
  const pieces = [
    ...tricky,
    '<a href="/x">',
    '</a>',
    '<p>',
    '</p>',
    '<div id="d">',
    '</div>',
    '<svg>',
    '</svg>',
    '<picture>',
    '</picture>',
    '<li>',
    '<ul>',
    '</ul>',
    '<br/>',
    '</br>',
    'text & more ',
    '&nbsp;&amp;',
    '\n',
    '<img src=i.png>',
    '<title>',
    '</title>',
    '<style>',
    '</style>',
    '<form>',
    '</form>',
    '&am',
    'p;',
    '&#x',
    '41;',
    '<a href="x?y=1&amp;z=&lt;2">',
    '<script>&amp;<a>',
    '</script>',
    '<textarea>',
    '</textarea>',
    '<xmp>',
    '</xmp>',
  ];
  return Array.from({ length: count }, () =>
    Array.from(
      { length: 5 + Math.floor(next() * 40) },
      () => pieces[Math.floor(next() * pieces.length)],
    ).join(''),
  );
}

describe('TagReader', () => {
  it("sees what htmlparser2's Parser sees, on tricky HTML, whatever the chunk size", () => {
    const document = tricky.join('\n');
    for (const chunkSize of [1, 2, 3, 7, 64, document.length]) {
      expect(withTagReader(document, chunkSize)).toEqual(withParser(document, chunkSize));
    }
    for (const piece of tricky) expect(withTagReader(piece, 5)).toEqual(withParser(piece, 5));
  });

  it('agrees with the Parser on 1,000 random documents', () => {
    const documents = randomDocuments(1000, 7);
    for (const [index, document] of documents.entries()) {
      const chunkSize = 1 + (index % 13);
      expect(withTagReader(document, chunkSize), document).toEqual(withParser(document, chunkSize));
    }
  });

  it('keeps only the chunks a token still needs', () => {
    const reader = new TagReader(new AttributeSet(['href']), {
      openTag: () => undefined,
      closeTag: () => undefined,
      wantsText: () => false,
      text: () => undefined,
    });
    for (let index = 0; index < 10_000; index++) reader.write(`<p>paragraph ${index}</p>`);
    expect((reader as unknown as { buffers: string[] }).buffers.length).toBeLessThanOrEqual(2);
    reader.end();
  });
});
