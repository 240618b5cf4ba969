import { IntList } from './int-list.js';

/**
 * Internal links between pages as compact edge lists (page id → target id), one edge per
 * distinct pair, plus how many link occurrences point at each target. Kept only when page
 * rank or page inclusion is asked for.
 */
export class LinkGraph {
  readonly from = new IntList();
  readonly to = new IntList();
  private readonly inbound = new Map<number, number>();
  private currentPage = -1;
  private readonly currentTargets = new Set<number>();

  /** An internal link from a page to a target (call in page order; repeats on a page collapse). */
  addLink(pageId: number, targetId: number, selfTargetId: number): void {
    if (targetId === selfTargetId) return;
    this.inbound.set(targetId, (this.inbound.get(targetId) ?? 0) + 1);
    if (pageId !== this.currentPage) {
      this.currentPage = pageId;
      this.currentTargets.clear();
    }
    if (this.currentTargets.has(targetId)) return;
    this.currentTargets.add(targetId);
    this.from.push(pageId);
    this.to.push(targetId);
  }

  inboundLinks(targetId: number): number {
    return this.inbound.get(targetId) ?? 0;
  }
}
