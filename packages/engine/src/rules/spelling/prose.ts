// One pass over a page's prose finds everything the spelling rules report: unknown words, and
// mistakes of correctly spelt words that a dictionary cannot see ("the the", "should of",
// "a apple", "i think"). Each rule then only picks its own findings.
import { emptyHash, hashStep, isWhiteSpace } from '../chars.js';
import type { ParsedPage } from '../page.js';
import type { SourceText } from '../source.js';
import type { Chunk, ChunkReader } from './chunks.js';
import { confusions, phrasesByLastWord } from './confusions.js';
import { readTextSegments, type SegmentReader, type TextContext } from './texts.js';

export type ProseKind = 'misspelt' | 'repeated' | 'confused' | 'article' | 'pronoun';

export interface ProseFinding {
  kind: ProseKind;
  context: TextContext;
  /** Page offset of the offending word. */
  start: number;
  message: string;
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

/** A mistake the last two words of the phrase make together, if any. */
function pairFinding(phrase: Phrase): Finding | undefined {
  const before = phrase.chunk(1);
  const now = phrase.chunk(0);
  if (!before || !now) return undefined;
  if (before.word === now.word && !now.grammar.fineDouble) {
    return { kind: 'repeated', start: phrase.start(0), message: `"${now.written}" twice` };
  }
  if (before.grammar.lowerCaseI && now.grammar.startsLowerCase) {
    return { kind: 'pronoun', start: phrase.start(1), message: `"${before.written}"` };
  }
  const wanted = now.grammar.article;
  if ((before.word === 'a' || before.word === 'an') && wanted && wanted !== before.word) {
    const message = `"${before.written} ${now.written}": write "${wanted} ${now.written}"`;
    return { kind: 'article', start: phrase.start(1), message };
  }
  return undefined;
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

  constructor(private readonly chunks: ChunkReader) {}

  read(
    context: TextContext,
    text: string,
    from: number,
    to: number,
    decoded: SourceText | undefined,
  ): void {
    this.context = context;
    this.decoded = decoded;
    this.phrase.clear();
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
    }
  }

  /** The page offset of a character of the piece being read. */
  private offset(at: number): number {
    return this.decoded === undefined ? at : this.decoded.offset(at);
  }

  private chunk(chunk: Chunk, at: number): void {
    for (const word of chunk.misspelt) {
      const start = this.offset(at + word.index);
      this.add({ kind: 'misspelt', start, message: `Unknown word "${word.text}"` });
    }
    const phrase = this.phrase;
    if (chunk.opens || chunk.word === undefined) phrase.clear();
    if (chunk.word === undefined) return;
    phrase.push(chunk as WordChunk, this.offset(at + chunk.wordIndex));
    if (phrase.length > 1) this.add(pairFinding(phrase));
    if (chunk.grammar.endsConfusion) this.add(confusionFinding(phrase));
    if (chunk.closes) phrase.clear();
  }

  private add(finding: Finding | undefined): void {
    if (finding) this.findings.push({ ...finding, context: this.context });
  }
}

const findingsKey = Symbol('prose findings');

/** Everything the spelling rules report on a page, computed once for all of them. */
export function proseFindings(page: ParsedPage): readonly ProseFinding[] {
  return page.memo(findingsKey, () => {
    const reader = new ProseReader(page.services.spelling.chunks);
    readTextSegments(page, reader);
    return reader.findings;
  });
}
