/**
 * Text likeness for suggestions: 0 (nothing alike) to 1 (the same), and the rule that a guess is
 * offered only when one candidate clearly wins.
 */

/** Two rows of the edit-distance table, grown as needed and reused: guesses run by the thousand. */
let previousRow = new Int32Array(64);
let currentRow = new Int32Array(64);

/** 1 − edit distance / longer length (Levenshtein, two rows). */
export function editSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  if (previousRow.length <= b.length) {
    previousRow = new Int32Array(b.length * 2 + 1);
    currentRow = new Int32Array(b.length * 2 + 1);
  }
  let previous = previousRow;
  let current = currentRow;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    const code = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (code === b.charCodeAt(j - 1) ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    [previous, current] = [current, previous];
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
