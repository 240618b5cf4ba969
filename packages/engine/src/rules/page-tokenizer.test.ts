import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { tokenizeHtml } from './page-tokenizer.js';
import {
  randomHtmlDocuments,
  randomJoins,
  trickyHtml,
  unfinishedHtml,
} from '../extract/test-support/html-samples.js';

// tokenizeHtml must report exactly what htmlparser2's Tokenizer reports for a whole page
// (`{ decodeEntities: false }`, the page written at once, then ended): every callback with its
// offsets, in order, including when the Tokenizer asks whether it is in foreign content.

type Event = (string | number | boolean)[];

/** Records every callback; the foreign-content answers follow a fixed pattern of the question's number. */
function recorder(events: Event[]): TokenizerCallbacks {
  let questions = 0;
  const record =
    (name: string) =>
    (...args: number[]) => {
      events.push([name, ...args]);
    };
  return {
    ontext: record('text'),
    ontextentity: record('textentity'),
    onopentagname: record('opentagname'),
    onattribname: record('attribname'),
    onattribdata: record('attribdata'),
    onattribentity: record('attribentity'),
    onattribend: record('attribend'),
    onopentagend: record('opentagend'),
    onselfclosingtag: record('selfclosingtag'),
    onclosetag: record('closetag'),
    oncomment: record('comment'),
    oncdata: record('cdata'),
    ondeclaration: record('declaration'),
    onprocessinginstruction: record('processinginstruction'),
    onend: record('end'),
    isInForeignContext() {
      const answer = questions++ % 3 === 1;
      events.push(['foreign?', answer]);
      return answer;
    },
  };
}

function withTokenizer(html: string): Event[] {
  const events: Event[] = [];
  const tokenizer = new Tokenizer({ decodeEntities: false }, recorder(events));
  if (html) tokenizer.write(html);
  tokenizer.end();
  return events;
}

function withTokenizeHtml(html: string): Event[] {
  const events: Event[] = [];
  tokenizeHtml(html, recorder(events));
  return events;
}

function expectSameEvents(html: string): void {
  expect(withTokenizeHtml(html), JSON.stringify(html)).toEqual(withTokenizer(html));
}

/** Random strings of the characters the Tokenizer's states turn on. */
function randomMarkup(count: number, seed: number): string[] {
  const pieces = [
    ...['<', '>', '/', '!', '?', '-', '[', ']', '=', '"', "'", ' ', '\n', '\t', '\r', '\f'],
    ...['a', 'x', 'D', '&', '\x1c', '\x0f', '\u00e9', '\u4e00', '<!--', '-->', '--!>', '<![CDATA['],
    ...[']]>', '<!doctype', '</', '<script', '</script', '<style', '</style', '<title', '</title'],
    ...['<textarea', '</textarea', '<xmp', '</xmp', '<iframe', '</iframe', '<noembed'],
    ...['</noembed', '<noframes', '</noframes', '<plaintext', '<SCRIPT', '</Style', '<svg'],
    ...['<scr', '<tem', '<no', 'ipt', 'le', '<p', '<div', 'href', 'title', 'script', '--!'],
    ...['<<', '>>', '<title>', '<script>', '<svg>', '</svg>', '<textarea>', '<style>'],
  ];
  return randomJoins(pieces, count, seed, { minPieces: 1, extraPieces: 30 });
}

describe('tokenizeHtml', () => {
  it("reports what htmlparser2's Tokenizer reports on tricky documents", () => {
    for (const html of [...trickyHtml, ...unfinishedHtml, '']) expectSameEvents(html);
    expectSameEvents(trickyHtml.join('\n'));
  });

  it('reports the same for every beginning of the tricky documents, however they end', () => {
    const html = trickyHtml.join('');
    for (let end = 0; end <= html.length; end++) expectSameEvents(html.slice(0, end));
  });

  it('reports the same on 3,000 random documents', () => {
    for (const html of randomHtmlDocuments(3000, 5)) expectSameEvents(html);
  });

  it('reports the same on 20,000 random strings of markup characters', () => {
    for (const html of randomMarkup(20_000, 3)) expectSameEvents(html);
  });
});
