import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { AttributeSet, TagReader } from './tag-reader.js';
import { randomJoins, readerHtml } from './test-support/html-samples.js';

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

/** Seeded random documents built from pieces that stress the tree rules and the tokenizer. */
function randomDocuments(count: number, seed: number): string[] {
  const pieces = [
    ...readerHtml,
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
  return randomJoins(pieces, count, seed, { minPieces: 5, extraPieces: 40 });
}

describe('TagReader', () => {
  it("sees what htmlparser2's Parser sees, on tricky HTML, whatever the chunk size", () => {
    const document = readerHtml.join('\n');
    for (const chunkSize of [1, 2, 3, 7, 64, document.length]) {
      expect(withTagReader(document, chunkSize)).toEqual(withParser(document, chunkSize));
    }
    for (const piece of readerHtml) expect(withTagReader(piece, 5)).toEqual(withParser(piece, 5));
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
