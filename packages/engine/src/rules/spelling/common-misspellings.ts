// Misspellings people are known to make ("teh", "mesage", "recieve", "occured", "untill"), from
// cspell's list of common English misspellings (issue 37). The slip heuristics of speller.ts
// must stay strict to keep their precision on the language of the trade, and so miss slips that
// look like compounds or affixed words ("untill" = "un" + "till", "occured" = "occur" + "ed") or
// that are capitalised ("Teh"); a word on this list is a slip whatever it looks like.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

interface CspellDictionary {
  dictionaryDefinitions: { flagWords?: string[]; suggestWords?: string[] }[];
}

/** Misspelling → its "wrong->right, other" entry, or undefined until first use. */
let entries: Map<string, string> | undefined;

/**
 * The list, loaded on first use (about 90,000 entries; ~70 ms on an idle machine, paid by a
 * scan's rule thread the first time it meets a word the dictionary does not know). The package
 * exports only its cspell settings, so its dictionary is found beside them.
 */
function commonEntries(): Map<string, string> {
  if (entries) return entries;
  const settings = createRequire(import.meta.url).resolve('@cspell/dict-en-common-misspellings');
  const file = path.join(path.dirname(settings), 'dict', 'dict-en.json');
  const dictionary = JSON.parse(readFileSync(file, 'utf8')) as CspellDictionary;
  entries = new Map();
  for (const definition of dictionary.dictionaryDefinitions) {
    for (const list of [definition.flagWords ?? [], definition.suggestWords ?? []]) {
      for (const entry of list) entries.set(entry.slice(0, entry.indexOf('->')), entry);
    }
  }
  return entries;
}

/** The first correction the list gives for a misspelling (lower case), or undefined. */
function correctionOf(word: string): string | undefined {
  const entry = commonEntries().get(word);
  return entry
    ?.slice(word.length + 2)
    .split(',')[0]!
    .trim();
}

/**
 * Whether two words are the same letters in another order ("teh" and "the"): the only slips of
 * three letters trusted, since most three-letter entries are abbreviations or words of other
 * languages ("ist", "sie", "ect").
 */
function sameLetters(a: string, b: string): boolean {
  return a.length === b.length && [...a].sort().join('') === [...b].sort().join('');
}

/**
 * The correction of a word on the list of common misspellings, written in lower case or
 * capitalised ("Teh" at the start of a sentence); undefined for any other word. Two-letter
 * entries ("nd", "ue") are abbreviations far more often than slips and are never reported.
 */
export function commonMisspelling(written: string): string | undefined {
  if (written.length < 3) return undefined;
  const lower = written.toLowerCase();
  if (written !== lower && written !== lower[0]!.toUpperCase() + lower.slice(1)) return undefined;
  if (!/^[a-z']+$/.test(lower)) return undefined;
  const correction = correctionOf(lower);
  if (!correction) return undefined;
  if (lower.length === 3 && !sameLetters(lower, correction)) return undefined;
  return correction;
}
