// A page's prose is read one white-space-separated chunk at a time ("word", "(see", "e-mail,",
// "https://…"). Chunks repeat endlessly across a site, so what a chunk holds is worked out once
// per scan and remembered: most chunks then cost one map lookup.
import { detached, emptyHash, hashStep } from '../chars.js';
import { phrasesByLastWord } from './confusions.js';
import type { Speller } from './speller.js';

/** What one chunk of prose holds. */
export interface Chunk {
  /** Its words the dictionary does not know, with their index in the chunk. */
  misspelt: readonly { text: string; index: number }[];
  /** The single word it wraps (`(the,` → `the`), lower-cased; undefined for code or compounds. */
  word: string | undefined;
  /** That word as written, and where it starts in the chunk. */
  written: string;
  wordIndex: number;
  /** Punctuation before or after the word, which ends a phrase ("end. End" is no repetition). */
  opens: boolean;
  closes: boolean;
  /** Facts the phrase checks of prose.ts ask about every word, worked out once. */
  grammar: WordGrammar;
}

export interface WordGrammar {
  /** Saying the word twice is good English ("had had"). */
  fineDouble: boolean;
  /** The pronoun I written in lower case: i, i'm, i've, i'll, i'd. */
  lowerCaseI: boolean;
  startsLowerCase: boolean;
  /** The article the word needs before it, when its spelling tells. */
  article: 'a' | 'an' | undefined;
  /** The word ends one of the confused phrases. */
  endsConfusion: boolean;
}

// A chunk is code, an address or a number, not prose, when it has any of these: e-mail and
// URLs (@ : /), identifiers (_ = { } < > | $ and camel humps are handled per word), digits, or
// a dot between letters (example.com, file.txt, e.g.).
const notProse = /[@/\\_=<>{}|$%^~`+*#\d]|:\/\/|^www\.|\p{L}\.\p{L}/iu;
const wordPattern = /[\p{L}\p{M}]+(?:['\u2019][\p{L}\p{M}]+)*/gu;
const plainWord = /^[A-Za-z]+(?:'[A-Za-z]+)*$/;
// camelCase and PascalCase humps, acronyms and their plurals (URLs, IDs) are names, not words.
const identifier = /[a-z][A-Z]|^[A-Z]{2,}[a-z]{0,2}$/;
const singleWord = /^([^\p{L}]*)(\p{L}(?:[\p{L}'\u2019]*\p{L})?)([^\p{L}]*)$/u;

// Doubles that are good English ("I had had enough", "that that is").
const fineDoubles = new Set(['had', 'that', 'is', 'bye', 'so', 'no', 'ha', 'ho', 'la', 'knock']);
// "an" before a vowel sound and "a" before a consonant sound, as far as spelling tells. Words
// that sound otherwise are left alone: one, once, euro, ewe (a), and h-words like hour (an).
const soundsLikeConsonant = /^(?:one|once|eu|ewe|oui)/;

// Prefixes written with a hyphen ("pre-release", "un-American") that are no words of their own.
const hyphenPrefixes = new Set(['pre', 'un', 'de', 'tri', 'mis', 'neo', 'intra', 'proto', 'quasi']);

const noWords: Chunk['misspelt'] = [];
const noGrammar: WordGrammar = {
  fineDouble: false,
  lowerCaseI: false,
  startsLowerCase: false,
  article: undefined,
  endsConfusion: false,
};
const code: Chunk = {
  misspelt: noWords,
  word: undefined,
  written: '',
  wordIndex: 0,
  opens: true,
  closes: true,
  grammar: noGrammar,
};

/** Typographic apostrophes as the dictionary writes them. */
export function normalizeApostrophes(word: string): string {
  return word.replace(/[\u2019\u2018\u02bc]/g, "'");
}

function misspeltWords(chunk: string, speller: Speller): Chunk['misspelt'] {
  let found: { text: string; index: number }[] | undefined;
  for (const match of chunk.matchAll(wordPattern)) {
    const text = normalizeApostrophes(match[0]);
    // Single letters, other scripts, accented words, acronyms and identifiers are outside what
    // an English dictionary can judge.
    if (text.length < 2 || !plainWord.test(text) || identifier.test(text)) continue;
    const prefix =
      chunk[match.index + text.length] === '-' && hyphenPrefixes.has(text.toLowerCase());
    if (!prefix && !speller.isCorrect(text)) (found ??= []).push({ text, index: match.index });
  }
  return found ?? noWords;
}

function grammarOf(written: string, word: string, speller: Speller): WordGrammar {
  // Only dictionary words in lower case: names, acronyms and jargon ("an FAQ", "an rlib") are
  // often said letter by letter, which spelling cannot tell.
  const judged = written === word && word.length > 1 && speller.isCorrect(word);
  const vowel = /^[aeio]/.test(word) && !soundsLikeConsonant.test(word);
  const consonant = /^[bcdfgjklmnpqrstvwz]/.test(word);
  return {
    fineDouble: fineDoubles.has(word),
    lowerCaseI: /^i(?:'(?:m|ve|ll|d))?$/.test(written),
    startsLowerCase: /^\p{Ll}/u.test(written),
    article: judged ? (vowel ? 'an' : consonant ? 'a' : undefined) : undefined,
    endsConfusion: phrasesByLastWord.has(word),
  };
}

function readChunk(chunk: string, speller: Speller): Chunk {
  if (notProse.test(chunk)) return code;
  const misspelt = misspeltWords(chunk, speller);
  const single = singleWord.exec(chunk);
  if (!single) return { ...code, misspelt };
  const [, before = '', raw = '', after = ''] = single;
  const written = normalizeApostrophes(raw);
  const word = written.toLowerCase();
  return {
    misspelt,
    word,
    written,
    wordIndex: before.length,
    opens: before !== '',
    closes: after !== '',
    grammar: grammarOf(written, word, speller),
  };
}

// About 10 MB at most: more distinct chunks than a site's vocabulary has, with punctuation.
const maxRemembered = 1 << 16;

/**
 * Reads chunks for one scan (its spelling ignore list decides what is misspelt). Chunks are
 * looked up straight in the page text by an open-addressing hash table, so the hundreds of
 * chunks of a page that were seen before cost no string allocation: a Map would need each
 * one sliced out first (measured: an eighth more time for spelling, and more garbage).
 */
export class ChunkReader {
  private readonly size = maxRemembered * 2; // at most half full
  private readonly keys: (string | undefined)[] = new Array<string | undefined>(this.size);
  private readonly hashes = new Int32Array(this.size);
  private readonly values: Chunk[] = new Array<Chunk>(this.size);
  private count = 0;

  constructor(private readonly speller: Speller) {}

  /** The chunk `text[begin..end)`, whose `chunkHash` the caller may have computed already. */
  read(text: string, begin: number, end: number, hash = chunkHash(text, begin, end)): Chunk {
    const mask = this.size - 1;
    let slot = hash & mask;
    for (let key = this.keys[slot]; key !== undefined; key = this.keys[slot]) {
      if (this.hashes[slot] === hash && sameText(key, text, begin, end)) return this.values[slot]!;
      slot = (slot + 1) & mask;
    }
    // Remembered for the whole scan, with the words cut from it: a copy, not a view into a page.
    const chunk = detached(text.slice(begin, end));
    const found = readChunk(chunk, this.speller);
    if (this.count < maxRemembered) {
      this.keys[slot] = chunk;
      this.hashes[slot] = hash;
      this.values[slot] = found;
      this.count++;
    }
    return found;
  }
}

export function chunkHash(text: string, begin: number, end: number): number {
  let hash = emptyHash;
  for (let i = begin; i < end; i++) hash = hashStep(hash, text.charCodeAt(i));
  return hash;
}

function sameText(key: string, text: string, begin: number, end: number): boolean {
  if (key.length !== end - begin) return false;
  for (let i = 0; i < key.length; i++) {
    if (key.charCodeAt(i) !== text.charCodeAt(begin + i)) return false;
  }
  return true;
}
