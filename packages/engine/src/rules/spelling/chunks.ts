// A page's prose is read one white-space-separated chunk at a time ("word", "(see", "e-mail,",
// "https://…"). Chunks repeat endlessly across a site, so what a chunk holds is worked out once
// per scan and remembered: most chunks then cost one map lookup.
import { detached, emptyHash, hashStep } from '../chars.js';
import { phrasesByLastWord } from './confusions.js';

/**
 * The one question reading a chunk asks of the scan's spell checker. The Speller (speller.ts)
 * answers it and owns a ChunkReader, so this module names the question, not the Speller.
 */
export interface WordChecker {
  isCorrect(word: string): boolean;
  /** Whether a word the dictionary does not know looks like a slip for one it knows. */
  looksMistyped(word: string): boolean;
  /** Whether a word the dictionary does not know is a known common misspelling ("teh"). */
  isCommonMisspelling(word: string): boolean;
}

/** A word of a chunk the dictionary does not know and that looks like a slip. */
export interface MisspeltWord {
  text: string;
  lower: string;
  index: number;
  /** On the list of common misspellings: a slip even where the site repeats it. */
  common: boolean;
}

/** What one chunk of prose holds. */
export interface Chunk {
  /** Its words the dictionary does not know, with their index in the chunk. */
  misspelt: readonly MisspeltWord[];
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
  /**
   * For a chunk of code in the prose (`activate.external.olinks`, `qanda_defaultlabel`): its
   * words, lower-case, which are the site's terms. Empty for prose.
   */
  terms: readonly string[];
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
  /**
   * What the word tells of an "a"/"an" before it: a determiner ("an the" is a slip for "and the"
   * or a stray article), a verb, conjunction or preposition ("A is", "a and b": the letter is a
   * variable, not an article), or nothing (an ordinary word the article agrees with or not).
   */
  afterArticle: 'determiner' | 'variable' | undefined;
}

// A chunk is code, an address or a number, not prose, when it has any of these: e-mail and
// URLs (@ : /), identifiers (_ = { } < > | $ and camel humps are handled per word), digits, or
// a dot between letters (example.com, file.txt, e.g.).
// Also options and commands: a leading dash (`-f`, `--verbose`), a leading colon (`:!start`),
// `::` (`std::vector`) and a call's parentheses (`open()`).
const notProse =
  /[@/\\_=<>{}|$%^~`+*#\d]|:\/\/|^www\.|\p{L}\.\p{L}|^['"(]?-{1,2}\p{L}|^['"(]?:\S|::|\(\)/iu;
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
// Words after which "a" or "an" is no article ("an the") or no article at all ("A is B").
const determiners = new Set([
  'the',
  'a',
  'an',
  'this',
  'these',
  'those',
  'my',
  'your',
  'our',
  'their',
]);
const variableFollowers = new Set([
  'is',
  'are',
  'was',
  'were',
  'be',
  'has',
  'had',
  'and',
  'or',
  'nor',
  'but',
  'not',
  'if',
  'then',
  'than',
  'to',
  'of',
  'in',
  'on',
  'at',
  'by',
  'for',
  'with',
  'from',
  'as',
  'into',
  'equals',
  'can',
  'will',
  'may',
  'must',
  'should',
  'would',
  'could',
  'does',
  'do',
  'contains',
  'itself',
]);

// Prefixes written with a hyphen ("pre-release", "un-American") that are no words of their own.
const hyphenPrefixes = new Set(['pre', 'un', 'de', 'tri', 'mis', 'neo', 'intra', 'proto', 'quasi']);

const noWords: Chunk['misspelt'] = [];
const noGrammar: WordGrammar = {
  fineDouble: false,
  lowerCaseI: false,
  startsLowerCase: false,
  article: undefined,
  endsConfusion: false,
  afterArticle: undefined,
};
const code: Chunk = {
  misspelt: noWords,
  word: undefined,
  written: '',
  wordIndex: 0,
  opens: true,
  closes: true,
  grammar: noGrammar,
  terms: [],
};

/** The words of a chunk of code: runs of two letters or more, lower-case. */
function termsOf(chunk: string): readonly string[] {
  const terms = chunk.toLowerCase().match(/[a-z]{2,}/g);
  return terms ? [...new Set(terms)] : code.terms;
}

/** Typographic apostrophes as the dictionary writes them. */
export function normalizeApostrophes(word: string): string {
  return word.replace(/[\u2019\u2018\u02bc]/g, "'");
}

function misspeltWords(chunk: string, speller: WordChecker): Chunk['misspelt'] {
  let found: MisspeltWord[] | undefined;
  for (const match of chunk.matchAll(wordPattern)) {
    const text = normalizeApostrophes(match[0]);
    // Single letters, other scripts, accented words, acronyms and identifiers are outside what
    // an English dictionary can judge.
    if (text.length < 2 || !plainWord.test(text) || identifier.test(text)) continue;
    const prefix =
      chunk[match.index + text.length] === '-' && hyphenPrefixes.has(text.toLowerCase());
    if (prefix || speller.isCorrect(text)) continue;
    const common = speller.isCommonMisspelling(text);
    if (common || speller.looksMistyped(text))
      (found ??= []).push({ text, lower: text.toLowerCase(), index: match.index, common });
  }
  return found ?? noWords;
}

function grammarOf(written: string, word: string, speller: WordChecker): WordGrammar {
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
    afterArticle: determiners.has(word)
      ? 'determiner'
      : variableFollowers.has(word)
        ? 'variable'
        : undefined,
  };
}

function readChunk(chunk: string, speller: WordChecker): Chunk {
  if (notProse.test(chunk)) return { ...code, terms: termsOf(chunk) };
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
    terms: code.terms,
  };
}

// About 10 MB at most: more distinct chunks than a site's vocabulary has, with punctuation.
const maxRemembered = 1 << 16;
const firstCapacity = 1 << 12;

/**
 * Reads chunks for one scan (its spelling ignore list decides what is misspelt). Chunks are
 * looked up straight in the page text by an open-addressing hash table, so the hundreds of
 * chunks of a page that were seen before cost no string allocation: a Map would need each
 * one sliced out first (measured: an eighth more time for spelling, and more garbage).
 *
 * The table holds, per slot, a chunk's hash and its number (0 for an empty slot) side by side,
 * and grows with the vocabulary: a lookup touches one small, dense array, which stays in the
 * processor's cache, instead of three large ones.
 */
export class ChunkReader {
  /** Per slot: the hash, then the chunk's number + 1. At most half the slots are used. */
  private slots = new Int32Array(firstCapacity * 2);
  /** The remembered chunks' text and reading, by number. */
  private readonly keys: string[] = [];
  private readonly values: Chunk[] = [];

  constructor(private readonly speller: WordChecker) {}

  /** The chunk `text[begin..end)`, whose `chunkHash` the caller may have computed already. */
  read(text: string, begin: number, end: number, hash = chunkHash(text, begin, end)): Chunk {
    const slots = this.slots;
    const mask = slots.length / 2 - 1;
    let slot = hash & mask;
    for (let entry = slots[slot * 2 + 1]!; entry !== 0; entry = slots[slot * 2 + 1]!) {
      if (slots[slot * 2] === hash && sameText(this.keys[entry - 1]!, text, begin, end)) {
        return this.values[entry - 1]!;
      }
      slot = (slot + 1) & mask;
    }
    // Remembered for the whole scan, with the words cut from it: a copy, not a view into a page.
    const chunk = detached(text.slice(begin, end));
    const found = readChunk(chunk, this.speller);
    if (this.keys.length < maxRemembered) {
      this.keys.push(chunk);
      this.values.push(found);
      slots[slot * 2] = hash;
      slots[slot * 2 + 1] = this.keys.length;
      if (this.keys.length * 2 > mask + 1) this.grow();
    }
    return found;
  }

  /** Twice the slots, each remembered chunk placed again by its hash. */
  private grow(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = slots.length / 2 - 1;
    for (let at = 0; at < old.length; at += 2) {
      if (old[at + 1] === 0) continue;
      let slot = old[at]! & mask;
      while (slots[slot * 2 + 1] !== 0) slot = (slot + 1) & mask;
      slots[slot * 2] = old[at]!;
      slots[slot * 2 + 1] = old[at + 1]!;
    }
    this.slots = slots;
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
