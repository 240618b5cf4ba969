import type { PhaseBudget } from '../phase-budget.js';

export interface PageRankOptions {
  damping?: number;
  /** Stop when the ranks change by less than this in total (L1). */
  tolerance?: number;
  maxIterations?: number;
  /** Checked between iterations (each costs O(pages + edges)); when exhausted, the ranks so far. */
  budget?: PhaseBudget;
}

/**
 * PageRank by power iteration over a directed graph of `pageCount` pages given as parallel
 * edge lists (duplicate edges and self-links should be removed by the caller). Pages without
 * outgoing links ("dangling") spread their rank evenly over all pages, so ranks sum to 1.
 */
export async function computePageRank(
  pageCount: number,
  from: ArrayLike<number>,
  to: ArrayLike<number>,
  options: PageRankOptions = {},
): Promise<Float64Array> {
  const damping = options.damping ?? 0.85;
  const tolerance = options.tolerance ?? 1e-6;
  const maxIterations = options.maxIterations ?? 1000;
  if (pageCount === 0) return new Float64Array(0);

  const outDegree = new Int32Array(pageCount);
  for (let edge = 0; edge < from.length; edge++) outDegree[from[edge] ?? 0]!++;

  let rank = new Float64Array(pageCount).fill(1 / pageCount);
  let next = new Float64Array(pageCount);
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    if (options.budget) {
      if (options.budget.exhausted) break;
      await options.budget.pace();
    }
    let danglingRank = 0;
    for (let page = 0; page < pageCount; page++)
      if (outDegree[page] === 0) danglingRank += rank[page]!;
    next.fill((1 - damping) / pageCount + (damping * danglingRank) / pageCount);
    for (let edge = 0; edge < from.length; edge++) {
      const source = from[edge]!;
      next[to[edge]!]! += (damping * rank[source]!) / outDegree[source]!;
    }
    let change = 0;
    for (let page = 0; page < pageCount; page++) change += Math.abs(next[page]! - rank[page]!);
    [rank, next] = [next, rank];
    if (change < tolerance) break;
  }
  return rank;
}

/** 0–10, linear relative to the best page, one decimal. */
export function pageRankScores(ranks: Float64Array): number[] {
  let best = 0;
  for (const rank of ranks) best = Math.max(best, rank);
  return Array.from(ranks, (rank) => (best > 0 ? Math.round((rank / best) * 100) / 10 : 0));
}
