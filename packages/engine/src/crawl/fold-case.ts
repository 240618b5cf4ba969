/** A character String.prototype.toLowerCase could change: A–Z, or anything beyond ASCII. */
const changesCase = /[A-Z\u0080-\uFFFF]/;

/**
 * `text.toLowerCase()`, without the copy when nothing would change: toLowerCase copies even an
 * unchanged string, and case-insensitive scans fold every link's URL (a copy per link, and a
 * second copy of every URL kept in the seen index).
 */
export function foldCase(text: string): string {
  return changesCase.test(text) ? text.toLowerCase() : text;
}
