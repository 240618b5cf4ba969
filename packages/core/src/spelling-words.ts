import { z } from 'zod';

/**
 * Words the spelling rules accept for one site (issue 25): a report row's "ignore this word" adds
 * the word to the owner's list of the scan's start address, and every new scan of that address
 * (a new scan, a rerun, a schedule's run) accepts the list's words besides its own.
 */

/** How many words one site's list holds (the same cap as a scan's own spellingIgnore). */
export const maxSiteWords = 5000;

export const siteWordsMessages = {
  notAWord: 'A word to ignore is one word: letters, digits, apostrophes, dots and hyphens.',
  full: `The list of words to ignore for this site is full (${maxSiteWords} words).`,
} as const;

/** One word as the speller reads it: letters (any script), digits, apostrophes, dots, hyphens. */
export const ignoredWordSchema = z
  .string()
  .trim()
  .min(1, { error: siteWordsMessages.notAWord })
  .max(100, { error: siteWordsMessages.notAWord })
  .regex(/^[\p{L}\p{M}\p{N}'\u2019.-]+$/u, { error: siteWordsMessages.notAWord });

/** POST /api/report/ignoredWords/{scanId}: the word of a spelling finding to ignore from now on. */
export const ignoreWordRequestSchema = z.object({ word: ignoredWordSchema });
export type IgnoreWordRequest = z.infer<typeof ignoreWordRequestSchema>;

/** The site's list: its start address and its words (lower case, sorted). */
export const siteWordsSchema = z.object({ site: z.string(), words: z.array(z.string()) });
export type SiteWords = z.infer<typeof siteWordsSchema>;

/** Words are compared as the speller does: case-insensitive, curly apostrophes as straight. */
export function normalizeIgnoredWord(word: string): string {
  return word
    .trim()
    .replace(/\u2019/g, "'")
    .toLowerCase();
}

/**
 * The unknown word a spelling finding names (its message is `Unknown word "…"`), or null for any
 * other finding (grammar, other categories): only those rows offer "ignore this word".
 */
export function unknownWordOf(message: string | null): string | null {
  const match = /^Unknown word "(.+)"$/.exec(message ?? '');
  return match?.[1] ?? null;
}

/** A scan's own words and the site's, once each (case-insensitive), the scan's first. */
export function mergeIgnoredWords(own: readonly string[], site: readonly string[]): string[] {
  const seen = new Set<string>();
  const merged: string[] = [];
  for (const word of [...own, ...site]) {
    const key = normalizeIgnoredWord(word);
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push(word);
  }
  return merged.slice(0, maxSiteWords);
}
