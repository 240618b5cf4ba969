import { commonMisspelling } from './common-misspellings.js';
import { ChunkReader, normalizeApostrophes } from './chunks.js';
import { loadChecker, type Checker } from './dictionary.js';
import { SiteVocabulary } from './vocabulary.js';

// One dictionary per process (about 20 MB), loaded on first use; it never changes.
let english: Checker | undefined;
function englishChecker(): Checker {
  return (english ??= loadChecker());
}

/** The English (US Hunspell) spell checker of one scan, with the scan's own accepted words. */
export class Speller {
  private readonly ignored: ReadonlySet<string>;
  /** Chunks of prose read with this speller, remembered for the whole scan. */
  readonly chunks = new ChunkReader(this);
  /** The site's own terms, learnt as the scan reads its pages, and the findings held for them. */
  readonly vocabulary = new SiteVocabulary();

  constructor(ignore: readonly string[]) {
    this.ignored = new Set(ignore.map((word) => normalizeApostrophes(word.trim()).toLowerCase()));
  }

  isCorrect(word: string): boolean {
    return this.ignored.has(word.toLowerCase()) || englishChecker().correct(word);
  }

  looksMistyped(word: string): boolean {
    return looksMistyped(word, englishChecker());
  }

  isCommonMisspelling(word: string): boolean {
    return commonMisspelling(word) !== undefined;
  }
}

// What an unknown word must look like to be reported (issue 25). On real documentation most
// unknown words are the language of the trade, not slips: compounds ("callout", "codebase"),
// affixed forms ("subdirectories", "untrusted", "awaitable"), British spellings, names,
// abbreviations ("gz", "idx"). A slip stays within one edit of the word meant.

const prefixes = [
  'sub',
  'un',
  'non',
  'pre',
  're',
  'de',
  'multi',
  'inter',
  'super',
  'over',
  'under',
  'co',
  'auto',
  'micro',
  'meta',
  'post',
  'semi',
];
const suffixes = [
  's',
  'es',
  'ed',
  'd',
  'ing',
  'er',
  'ers',
  'or',
  'ors',
  'able',
  'ability',
  'ly',
  'ness',
  'ise',
  'ize',
  'isation',
  'ization',
];
/** British endings and their US forms, tried in order. */
const british: readonly [RegExp, string][] = [
  [/our(s|ed|ing|ite|ites|able|er|ers)?$/, 'or$1'],
  [/is(e|es|ed|ing|ation|ations|er|ers)$/, 'iz$1'],
  [/yse(s|d)?$/, 'yze$1'],
  [/ence(s|d)?$/, 'ense$1'],
  [/tre(s)?$/, 'ter$1'],
  [/ogue(s)?$/, 'og$1'],
  [/ll(ed|ing|er|ers)$/, 'l$1'],
  [/([aeiu])l(s|ment|ments)?$/, '$1ll$2'], // fulfil, enrol, instil
];
const alphabet = 'abcdefghijklmnopqrstuvwxyz';
/** Letters from which a word is too long to be a name or an abbreviation. */
const longWord = 10;

let starts: Set<string> | undefined;
let endings: Set<string> | undefined;
/** The first two letters of the dictionary's lower-case words (built once, a few milliseconds). */
function startsOfWords(checker: Checker): Set<string> {
  if (starts) return starts;
  readWordEdges(checker);
  return starts!;
}

/** The last three letters of the dictionary's lower-case words. */
function endingsOfWords(checker: Checker): Set<string> {
  if (endings) return endings;
  readWordEdges(checker);
  return endings!;
}

function readWordEdges(checker: Checker): void {
  starts = new Set();
  endings = new Set();
  const { data } = checker as unknown as { data: Record<string, unknown> };
  for (const word of Object.keys(data)) {
    if (/^[a-z]{2}/.test(word)) starts.add(word.slice(0, 2));
    if (/[a-z]{3}$/.test(word)) endings.add(word.slice(-3));
  }
}

function known(checker: Checker, word: string): boolean {
  return word.length > 1 && checker.correct(word);
}

/** A word made of a known word and a prefix, a suffix (with its dropped "e"), or another word. */
function isCompound(word: string, checker: Checker): boolean {
  for (const prefix of prefixes) {
    if (word.startsWith(prefix) && known(checker, word.slice(prefix.length))) return true;
  }
  for (const suffix of suffixes) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, word.length - suffix.length);
    if (suffix === 's' && /[^aeiou]y$/.test(stem)) continue; // "glossarys": a wrong plural
    // A suffix of a vowel drops the stem's "e" ("ignorable"); "s" drops none ("tols" is no "tole").
    const dropsE = /^[aeiou]/.test(suffix);
    if (stem.length > 2 && (known(checker, stem) || (dropsE && known(checker, `${stem}e`))))
      return true;
  }
  for (let cut = 3; cut <= word.length - 2; cut++) {
    if (known(checker, word.slice(0, cut)) && known(checker, word.slice(cut))) return true;
  }
  return false;
}

function isBritish(word: string, checker: Checker): boolean {
  return british.some(
    ([ending, us]) => ending.test(word) && known(checker, word.replace(ending, us)),
  );
}

/**
 * Two neighbouring letters swapped ("recieve", "greenhuose"), not the first two: swapped there,
 * a name mostly makes another word ("eval", "lseek" are "veal", "sleek").
 */
function transposed(word: string, checker: Checker): boolean {
  for (let at = 1; at + 1 < word.length; at++) {
    if (word[at] === word[at + 1]) continue;
    const swapped = word.slice(0, at) + word[at + 1]! + word[at]! + word.slice(at + 2);
    if (known(checker, swapped)) return true;
  }
  return false;
}

/**
 * One letter inside the word left out, doubled or changed ("beautful", "identifer", "untill").
 * Not at either end: there an extra or changed letter mostly makes another name ("hrefs",
 * "gzipped", "maint", "codec" are one edit from "refs", "zipped", "main", "coded"). Long words
 * are the exception (issue 37): a stray letter in a word of ten letters or more
 * ("stubstitutions") or after a known word of six or more ("configurei", "patterna") is a
 * slip, since names and abbreviations are short.
 */
function oneEditAway(word: string, checker: Checker): boolean {
  return extraLetter(word, checker) || missingOrChangedLetter(word, checker);
}

function extraLetter(word: string, checker: Checker): boolean {
  const long = word.length >= longWord;
  // From the third letter: a doubled first letter is a name ("mmap" is no "map").
  for (let at = long ? 1 : 2; at < word.length - 1; at++) {
    // A letter too many is a doubled one ("untill"); any other is more often a name ("gzipped").
    if (!long && word[at] !== word[at - 1] && word[at] !== word[at + 1]) continue;
    if (known(checker, word.slice(0, at) + word.slice(at + 1))) return true;
  }
  // A stray last letter, not a plural "s": "sortingi".
  return word.length > 6 && !word.endsWith('s') && known(checker, word.slice(0, -1));
}

function missingOrChangedLetter(word: string, checker: Checker): boolean {
  for (let at = 1; at < word.length; at++) {
    for (const letter of alphabet) {
      if (known(checker, word.slice(0, at) + letter + word.slice(at))) return true;
      // A changed second letter mostly makes another name ("pwrite", "soffice").
      if (word.length > 5 && at > 1 && at < word.length - 1 && letter !== word[at]) {
        if (known(checker, word.slice(0, at) + letter + word.slice(at + 1))) return true;
      }
    }
  }
  return false;
}

/**
 * Whether an unknown word looks like a slip: in lower case (a capitalised unknown word is a
 * name: "Eggert", "Graphviz"), longer than three letters (shorter ones are abbreviations: "gz",
 * "idx"), not a compound, affixed or British form of known words, and one edit from a known word.
 */
export function looksMistyped(word: string, checker: Checker): boolean {
  if (word.length <= 3 || word !== word.toLowerCase()) return false;
  if (!startsOfWords(checker).has(word.slice(0, 2))) return false; // "gzipped", "qdoc": no English
  if (!endingsOfWords(checker).has(word.slice(-3))) return false; // "procfs", "libm": no English
  if (commonSlip(word, checker)) return true;
  if (isBritish(word, checker) || isCompound(word, checker)) return false;
  return transposed(word, checker) || oneEditAway(word, checker);
}

/** Slips beyond one inner edit: a plural in -ys ("glossarys"), -ically for -icly ("publically"). */
function commonSlip(word: string, checker: Checker): boolean {
  if (/[^aeiou]ys$/.test(word)) return known(checker, word.slice(0, -1));
  if (word.endsWith('ically')) return known(checker, `${word.slice(0, -6)}icly`);
  return false;
}
