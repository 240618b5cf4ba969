// One pass over a page's prose finds everything the spelling rules report: unknown words, and
// mistakes of correctly spelt words that a dictionary cannot see ("the the", "should of",
// "a apple", "i think"). Each rule then only picks its own findings.
import { emptyHash, hashStep, isWhiteSpace } from '../chars.js';
import type { ParsedPage } from '../page.js';
import type { SourceText } from '../source.js';
import type { Chunk, ChunkReader, MisspeltWord } from './chunks.js';
import { confusions, phrasesByLastWord } from './confusions.js';
import { readTextSegments, type SegmentReader, type TextContext } from './texts.js';
import type { SiteVocabulary } from './vocabulary.js';

export type ProseKind = 'misspelt' | 'repeated' | 'confused' | 'article' | 'pronoun';

export interface ProseFinding {
  kind: ProseKind;
  context: TextContext;
  /** Page offset of the offending word. */
  start: number;
  message: string;
  /** The unknown word, lower-case (misspelt findings only). */
  word?: string;
  /** The word is a known common misspelling (misspelt findings only). */
  common?: boolean;
}

type Finding = Omit<ProseFinding, 'context'>;

type WordChunk = Chunk & { word: string };

/**
 * The current phrase: consecutive words with no punctuation between them, as the chunks they
 * came from and their page offsets. Only the last five words matter to any check, so they sit
 * in a small ring that is overwritten rather than grown.
 */
class Phrase {
  private static readonly size = 5;
  private readonly chunks: WordChunk[] = [];
  private readonly starts: number[] = [];
  private next = 0;
  length = 0;

  // (Steps round the ring by comparison, not `%`: this runs for every word of every page, and
  // a division costs more than the rest of the step.)
  push(chunk: WordChunk, start: number): void {
    this.chunks[this.next] = chunk;
    this.starts[this.next] = start;
    this.next = this.next === Phrase.size - 1 ? 0 : this.next + 1;
    if (this.length < Phrase.size) this.length++;
  }

  clear(): void {
    this.length = 0;
  }

  /** The word `back` places before the newest (0 is the newest). */
  chunk(back: number): WordChunk | undefined {
    return back < this.length ? this.chunks[this.slot(back)] : undefined;
  }

  start(back: number): number {
    return this.starts[this.slot(back)] ?? 0;
  }

  private slot(back: number): number {
    const slot = this.next - 1 - back; // back < length <= size, so never below -size
    return slot < 0 ? slot + Phrase.size : slot;
  }
}

/**
 * Whether two writings of one word repeat each other: written alike, or differing only in the
 * case of the first letter ("The the"). A word beside its upper-case keyword ("or OR", "AND
 * and", "in IN") names the keyword, it does not repeat the word.
 */
function sameWriting(a: string, b: string): boolean {
  return a === b || a.slice(1) === b.slice(1);
}

/** A mistake the last two words of the phrase make together, if any. */
function pairFinding(phrase: Phrase): Finding | undefined {
  const before = phrase.chunk(1);
  const now = phrase.chunk(0);
  if (!before || !now) return undefined;
  if (before.word === now.word) {
    if (now.grammar.fineDouble || !sameWriting(before.written, now.written)) return undefined;
    return { kind: 'repeated', start: phrase.start(0), message: `"${now.written}" twice` };
  }
  if (before.grammar.lowerCaseI && now.grammar.startsLowerCase) {
    return { kind: 'pronoun', start: phrase.start(1), message: `"${before.written}"` };
  }
  if (before.word === 'a' || before.word === 'an') return articleFinding(phrase, before, now);
  return undefined;
}

/** "a"/"an" and the word after it, when they do not agree. */
function articleFinding(phrase: Phrase, article: WordChunk, now: WordChunk): Finding | undefined {
  const pair = `"${article.written} ${now.written}"`;
  switch (now.grammar.afterArticle) {
    case 'variable':
      return undefined; // "A is", "a and b": a letter naming something, not an article
    case 'determiner':
      // A capital A before a determiner is a name as well ("A the" in a list of options).
      if (article.written === 'A') return undefined;
      return {
        kind: 'article',
        start: phrase.start(1),
        message:
          article.word === 'an'
            ? `${pair}: delete "${article.written}", or write "and ${now.written}"`
            : `${pair}: delete "${article.written}"`,
      };
  }
  const wanted = now.grammar.article;
  if (!wanted || wanted === article.word) return undefined;
  const message = `${pair}: write "${wanted} ${now.written}"`;
  return { kind: 'article', start: phrase.start(1), message };
}

/** A confused phrase ending with the phrase's newest word, if any. */
function confusionFinding(phrase: Phrase): Finding | undefined {
  for (const words of phrasesByLastWord.get(phrase.chunk(0)?.word ?? '') ?? []) {
    const back = words.length - 1;
    const matches = words.every((word, index) => phrase.chunk(back - index)?.word === word);
    if (!matches) continue;
    const written = words.map((_word, index) => phrase.chunk(back - index)?.written).join(' ');
    const message = `"${written}": write "${confusions.get(words.join(' '))}"`;
    return { kind: 'confused', start: phrase.start(back), message };
  }
  return undefined;
}

class ProseReader implements SegmentReader {
  readonly findings: ProseFinding[] = [];
  private readonly phrase = new Phrase();
  private context: TextContext = 'body';
  /** How the piece being read maps to page offsets; undefined when it is the page itself. */
  private decoded: SourceText | undefined;
  /**
   * A confused phrase ending in "of" ("could of"), waiting for the next word: "could of course"
   * is good English, so it is reported only when the next word is not "course".
   */
  private pending: Finding | undefined;

  private navigation = false;
  /** Whether the chunk being read starts a sentence (the text's first, or after . ! ? or :). */
  private sentenceStart = true;

  constructor(
    private readonly chunks: ChunkReader,
    private readonly vocabulary: SiteVocabulary,
  ) {}

  code(text: string, begin: number, end: number): void {
    this.vocabulary.code(text, begin, end);
  }

  read(
    context: TextContext,
    text: string,
    from: number,
    to: number,
    decoded: SourceText | undefined,
    navigation: boolean,
  ): void {
    this.context = context;
    this.navigation = navigation;
    this.decoded = decoded;
    this.phrase.clear();
    this.sentenceStart = true;
    let end = from;
    // A hand-written scan for runs of non-space, hashing each run for the chunk table as it
    // goes: this loop runs for every character of every page's prose.
    while (end < to) {
      let begin = end;
      while (begin < to && isWhiteSpace(text.charCodeAt(begin))) begin++;
      if (begin === to) break;
      let hash = emptyHash;
      for (end = begin; end < to; end++) {
        const code = text.charCodeAt(end);
        if (isWhiteSpace(code)) break;
        hash = hashStep(hash, code);
      }
      this.chunk(this.chunks.read(text, begin, end, hash), begin);
      this.sentenceStart = endsSentence(text, begin, end);
    }
    this.flushPending();
  }

  private flushPending(): void {
    if (this.pending) this.add(this.pending);
    this.pending = undefined;
  }

  /** The page offset of a character of the piece being read. */
  private offset(at: number): number {
    return this.decoded === undefined ? at : this.decoded.offset(at);
  }

  private chunk(chunk: Chunk, at: number): void {
    for (const term of chunk.terms) this.vocabulary.term(term);
    for (const misspelt of chunk.misspelt) {
      // A capitalised word inside a sentence is a name ("Stichting Mathematisch Centrum"), even
      // when it is spelt like a common slip; at a sentence's start it is the slip ("Teh").
      if (misspelt.common && misspelt.text !== misspelt.lower && !this.startsSentence(misspelt))
        continue;
      const start = this.offset(at + misspelt.index);
      const word = misspelt.lower;
      const context = this.context;
      const heading = context === 'heading' || context === 'title';
      this.vocabulary.unknown(word, heading, this.navigation && context === 'link');
      const message = `Unknown word "${misspelt.text}"`;
      this.add({ kind: 'misspelt', start, message, word, common: misspelt.common });
    }
    const phrase = this.phrase;
    if (this.pending && (chunk.opens || chunk.word !== 'course')) this.flushPending();
    this.pending = undefined;
    if (chunk.opens || chunk.word === undefined) phrase.clear();
    if (chunk.word === undefined) return;
    phrase.push(chunk as WordChunk, this.offset(at + chunk.wordIndex));
    if (phrase.length > 1) this.add(pairFinding(phrase));
    if (chunk.grammar.endsConfusion) {
      const confused = confusionFinding(phrase);
      if (confused && chunk.word === 'of' && !chunk.closes) this.pending = confused;
      else this.add(confused);
    }
    if (chunk.closes) phrase.clear();
  }

  /** Whether a word of the chunk being read is the first word of a sentence. */
  private startsSentence(word: MisspeltWord): boolean {
    return this.sentenceStart && word.index <= 1;
  }

  private add(finding: Finding | undefined): void {
    if (finding) this.findings.push({ ...finding, context: this.context });
  }
}

/** Whether the chunk `text[begin..end)` ends a sentence: . ! ? or :, before closing quotes. */
function endsSentence(text: string, begin: number, end: number): boolean {
  let at = end - 1;
  while (at > begin && '"\')]\u201d\u2019'.includes(text[at]!)) at--;
  return '.!?:'.includes(text[at]!);
}

const findingsKey = Symbol('prose findings');

/** Everything the spelling rules report on a page, computed once for all of them. */
export function proseFindings(page: ParsedPage): readonly ProseFinding[] {
  return page.memo(findingsKey, () => {
    const { chunks, vocabulary } = page.services.spelling;
    vocabulary.startPage();
    const reader = new ProseReader(chunks, vocabulary);
    readTextSegments(page, reader);
    return reader.findings;
  });
}
