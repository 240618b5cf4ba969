/**
 * Text likeness for suggestions: 0 (nothing alike) to 1 (the same), and the rule that a guess is
 * offered only when one candidate clearly wins.
 */

/** Three rows of the edit-distance table, grown as needed and reused: guesses run by the thousand. */
let beforeRow = new Int32Array(64);
let previousRow = new Int32Array(64);
let currentRow = new Int32Array(64);

/**
 * 1 − edit distance / longer length. The distance is the optimal string alignment form of
 * Damerau–Levenshtein (issue 37): two swapped neighbouring letters are one edit, as people slip
 * ("#tema" for `team` is one edit, not two), and no substring is edited twice.
 */
export function editSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  if (previousRow.length <= b.length) {
    beforeRow = new Int32Array(b.length * 2 + 1);
    previousRow = new Int32Array(b.length * 2 + 1);
    currentRow = new Int32Array(b.length * 2 + 1);
  }
  let before = beforeRow; // row i − 2
  let previous = previousRow; // row i − 1
  let current = currentRow;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    const code = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (code === b.charCodeAt(j - 1) ? 0 : 1);
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
      if (
        i > 1 &&
        j > 1 &&
        code === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      ) {
        best = Math.min(best, before[j - 2]! + 1);
      }
      current[j] = best;
    }
    [before, previous, current] = [previous, current, before];
  }
  return 1 - previous[b.length]! / longer;
}

/** Lower-case words of a text, an address segment or a file name (`Getting-Started.html`). */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/\.(html?|php|aspx?|jsp)$/, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** Shared words over all words (Jaccard); 0 when either side has none. */
export function wordOverlap(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const left = new Set(a);
  const right = new Set(b);
  let shared = 0;
  for (const word of left) if (right.has(word)) shared++;
  return shared / (left.size + right.size - shared);
}

export interface Scored<T> {
  item: T;
  score: number;
}

/** A guess must score at least this… */
export const minimumScore = 0.6;
/** …and beat the runner-up by this much, or no guess is offered (a wrong fix is worse than none). */
export const minimumLead = 0.15;

/** The best candidate when it clearly wins, else undefined. */
export function clearWinner<T>(scored: ReadonlyArray<Scored<T>>): Scored<T> | undefined {
  const ranked = [...scored].sort((a, b) => b.score - a.score);
  const [best, second] = ranked;
  if (!best || best.score < minimumScore) return undefined;
  if (second && best.score - second.score < minimumLead) return undefined;
  return best;
}

/** A confidence as shown: two decimals. */
export function roundedConfidence(score: number): number {
  return Math.round(Math.min(1, Math.max(0, score)) * 100) / 100;
}
