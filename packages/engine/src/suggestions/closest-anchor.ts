import { clearWinner, editSimilarity, roundedConfidence } from './similarity.js';
import { percentDecode } from '../checks/anchors.js';

/**
 * The id on the target page a broken #fragment most likely meant (a typo, a renamed heading
 * whose slug changed a little), compared case- and separator-insensitively; only a clear winner.
 */
export function closestAnchor(
  fragment: string,
  ids: readonly string[],
): { id: string; confidence: number } | undefined {
  const wanted = normalised(percentDecode(fragment.replace(/^#/, '')));
  if (wanted === '') return undefined;
  const unique = [...new Set(ids)].filter((id) => id !== '');
  const winner = clearWinner(
    unique.map((id) => ({ item: id, score: editSimilarity(wanted, normalised(id)) })),
  );
  return winner && { id: winner.item, confidence: roundedConfidence(winner.score) };
}

function normalised(name: string): string {
  return name.toLowerCase().replace(/[-_\s.]+/g, '-');
}
