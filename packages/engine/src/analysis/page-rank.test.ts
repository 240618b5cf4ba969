import { describe, expect, it } from 'vitest';
import { computePageRank, pageRankScores } from './page-rank.js';

describe('computePageRank', () => {
  it('matches the hand-computed ranks of a small graph', async () => {
    // A→B, A→C, B→C, C→A, D→C: D has no inbound link and nothing is dangling.
    // Solved by hand: with d = 0.85, N = 4 the stationary equations
    //   A = 0.0375 + 0.85·C;  B = 0.0375 + 0.85·A/2;  C = 0.0375 + 0.85·(A/2 + B + D);  D = 0.0375
    // give A = 0.1235625 / 0.3316875 = 0.3725268…, B = 0.1958239…, C = 0.3941492…, D = 0.0375.
    const ranks = await computePageRank(4, [0, 0, 1, 2, 3], [1, 2, 2, 0, 2], { tolerance: 1e-12 });
    expect(Array.from(ranks, (rank) => Number(rank.toFixed(6)))).toEqual([
      0.372527, 0.195824, 0.394149, 0.0375,
    ]);
    expect(ranks.reduce((sum, rank) => sum + rank, 0)).toBeCloseTo(1, 10);
  });

  it('spreads the rank of dangling pages over every page', async () => {
    // A→B only: B is dangling. A = 0.075 + 0.85·B/2, B = 0.075 + 0.85·(A + B/2)
    // → A = 0.350877…, B = 0.649122…
    const ranks = await computePageRank(2, [0], [1], { tolerance: 1e-12 });
    expect(Array.from(ranks, (rank) => Number(rank.toFixed(6)))).toEqual([0.350877, 0.649123]);
  });

  it('gives equal ranks to pages without links and scores the best page 10', async () => {
    const ranks = await computePageRank(3, [], []);
    expect(Array.from(ranks)).toEqual([1 / 3, 1 / 3, 1 / 3]);
    expect(pageRankScores(await computePageRank(2, [0], [1]))).toEqual([5.4, 10]);
  });
});
