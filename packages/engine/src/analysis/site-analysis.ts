import type { LinkKind, PageInclusionEvent, ScanEvent, SitemapSummary } from '../events.js';
import { pageIdOf, type Target } from '../crawl/targets.js';
import type { SiteAnalysisSummary } from '../scan-tally.js';
import { IntList } from './int-list.js';
import { LinkGraph } from './link-graph.js';
import { indexability } from './page-inclusion.js';
import { computePageRank, pageRankScores } from './page-rank.js';
import {
  baseContentType,
  isFatPage,
  pageSize,
  pageSizeBucket,
  type SizedResource,
} from './page-sizes.js';
import type { RobotsRules } from '../crawl/robots.js';
import type { PhaseBudget } from '../phase-budget.js';
import type { PostCrawlPhase } from '@linkaudit/core';
import type { SitemapContents } from './sitemaps.js';

/** Makes the budget of one phase of the analysis (the scan owns the time and the cancel). */
export type BudgetFor = (phase: PostCrawlPhase) => PhaseBudget;

/** What the crawl learned about one parsed page, kept compact for the analysis at the end. */
export interface PageRecord {
  url: string;
  targetId: number;
  htmlBytes: number;
  contentType: string;
  statusCode: number;
  robotsMeta: string[];
  xRobotsTag: string | undefined;
  canonical: string | undefined;
  /** Distinct resources the page references (images, CSS, scripts, fonts, media), by target id. */
  resources: Iterable<number>;
}

/** A page as the analysis keeps it to the end: its resources are a run of `resourceIds`. */
interface StoredPage extends Omit<PageRecord, 'resources'> {
  firstResource: number;
  resourceCount: number;
}

export interface SiteAnalysisOptions {
  pageRank: boolean;
  pageInclusion: boolean;
  startUrl: string;
  keyOf: (url: string) => string;
}

/** What the crawl read of the site itself, for page inclusion. */
export interface SiteFiles {
  sitemap: SitemapContents | undefined;
  robots: RobotsRules;
}

const resourceKinds: ReadonlySet<LinkKind> = new Set([
  'image',
  'stylesheet',
  'script',
  'icon',
  'media',
  'object',
  'other',
]);

/** Resources count towards a page's weight; pages and iframes are pages of their own. */
export function isResourceKind(kind: LinkKind): boolean {
  return resourceKinds.has(kind);
}

/**
 * The site-wide results computed once the crawl is over: page sizes and file types always,
 * PageRank and page inclusion when asked for. The crawl feeds it pages and internal links.
 */
export class SiteAnalysis {
  private readonly pages: StoredPage[] = [];
  /**
   * Every page's resources end to end, a page's from its `firstResource`: one list for the site
   * instead of an array per page (~70 bytes a page, 70 MB over a million pages).
   */
  private readonly resourceIds = new IntList();
  private readonly graph: LinkGraph | undefined;
  /** Stylesheets' own resources (fonts, images, imports), by the stylesheet's target id. */
  private readonly stylesheetResources = new Map<number, number[]>();
  brokenAnchors = 0;
  duplicateAnchors = 0;
  certificateProblems = 0;

  constructor(private readonly options: SiteAnalysisOptions) {
    if (options.pageRank || options.pageInclusion) this.graph = new LinkGraph();
  }

  recordPage(pageId: number, record: PageRecord): void {
    const firstResource = this.resourceIds.length;
    for (const id of record.resources) this.resourceIds.push(id);
    // Every field named in one literal: the object holds them all, no property array beside it.
    this.pages[pageId] = {
      url: record.url,
      targetId: record.targetId,
      htmlBytes: record.htmlBytes,
      contentType: record.contentType,
      statusCode: record.statusCode,
      robotsMeta: record.robotsMeta,
      xRobotsTag: record.xRobotsTag,
      canonical: record.canonical,
      firstResource,
      resourceCount: this.resourceIds.length - firstResource,
    };
  }

  /**
   * The resources a stylesheet references (fonts, images, imported stylesheets): they count in
   * the size of every page that uses the stylesheet.
   */
  recordStylesheet(targetId: number, resources: Iterable<number>): void {
    this.stylesheetResources.set(targetId, [...resources]);
  }

  /** An internal link from a parsed page, for the link graph. */
  recordInternalLink(pageId: number, pageTargetId: number, targetId: number): void {
    this.graph?.addLink(pageId, targetId, pageTargetId);
  }

  /**
   * Every result event of the analysis, then the summary fields it owns. Each phase (sizes,
   * rank, inclusion) costs O(pages + links) per step and stops with what it has when its budget
   * is exhausted; a cancelled scan skips them.
   */
  async finish(
    targets: Target[],
    site: SiteFiles,
    emit: (event: ScanEvent) => void,
    budgetFor: BudgetFor,
  ): Promise<SiteAnalysisSummary> {
    const sizes = await this.emitPageSizes(targets, emit, budgetFor('page-sizes'));
    if (this.options.pageRank) await this.emitPageRanks(targets, emit, budgetFor('page-rank'));
    const sitemapSummary = this.options.pageInclusion
      ? await this.emitInclusion(targets, site, emit, budgetFor('page-inclusion'))
      : undefined;
    return {
      brokenAnchors: this.brokenAnchors,
      duplicateAnchors: this.duplicateAnchors,
      fattestPages: sizes.fattest,
      pageSizeBuckets: sizes.buckets,
      fileTypes: fileTypes(targets, this.options.keyOf),
      certificateProblems: this.certificateProblems,
      ...(sitemapSummary ? { sitemap: sitemapSummary } : {}),
    };
  }

  private async emitPageSizes(
    targets: Target[],
    emit: (event: ScanEvent) => void,
    budget: PhaseBudget,
  ) {
    const buckets = [0, 0, 0, 0, 0, 0];
    let fattest = 0;
    for (const page of this.pages) {
      if (budget.exhausted) break;
      await budget.pace();
      if (!page) continue;
      const size = pageSize(
        page.htmlBytes,
        page.contentType,
        sizedResources(page, this.resourceIds, targets, this.stylesheetResources),
      );
      buckets[pageSizeBucket(size.totalBytes)]!++;
      if (isFatPage(size.totalBytes)) fattest++;
      emit({ type: 'page-size', page: page.url, ...size });
    }
    return { buckets, fattest };
  }

  private async emitPageRanks(
    targets: Target[],
    emit: (event: ScanEvent) => void,
    budget: PhaseBudget,
  ): Promise<void> {
    const graph = this.graph;
    if (!graph) return;
    const { from, to } = pageEdges(graph, targets, this.pages.length);
    const ranks = await computePageRank(this.pages.length, from, to, { budget });
    if (budget.cancelled) return;
    const scores = pageRankScores(ranks);
    for (let pageId = 0; pageId < this.pages.length; pageId++) {
      const page = this.pages[pageId];
      if (!page) continue;
      // Ranks cut short are still ranks (fewer iterations): every page gets one.
      if (budget.cancelled) return;
      await budget.pace();
      emit({
        type: 'page-rank',
        page: page.url,
        rank: ranks[pageId] ?? 0,
        score: scores[pageId] ?? 0,
      });
    }
  }

  private async emitInclusion(
    targets: Target[],
    { sitemap, robots }: SiteFiles,
    emit: (event: ScanEvent) => void,
    budget: PhaseBudget,
  ): Promise<SitemapSummary> {
    const inSitemap = new Set((sitemap?.urls ?? []).map((url) => this.options.keyOf(url)));
    const inbound = this.inboundByPage(targets);
    const summary: SitemapSummary = {
      sitemaps: sitemap?.sitemaps ?? [],
      urls: inSitemap.size,
      orphans: 0,
      broken: 0,
      redirected: 0,
      notIndexable: 0,
      missingFromSitemap: 0,
    };
    // Sitemap entries among the checked URLs, found in one pass (no map of every target).
    const listedPages = new Set<number>();
    const listedTargets = new Map<string, Target>();
    for (const target of targets) {
      if (budget.exhausted) return summary;
      await budget.pace();
      if (inSitemap.size === 0) break;
      const key = this.options.keyOf(target.url);
      if (!inSitemap.has(key)) continue;
      if (!listedTargets.has(key)) listedTargets.set(key, target);
      const pageId = pageIdOf(target);
      if (pageId !== undefined) listedPages.add(pageId);
    }
    for (let pageId = 0; pageId < this.pages.length; pageId++) {
      const page = this.pages[pageId];
      if (!page) continue;
      if (budget.exhausted) return summary;
      await budget.pace();
      const event = this.pageInclusion(
        page,
        pageId,
        inbound,
        listedPages.has(pageId) || inSitemap.has(this.options.keyOf(page.url)),
        robots,
      );
      if (event.inSitemap && !event.indexable) summary.notIndexable++;
      if (event.orphan) summary.orphans++;
      if (summary.sitemaps.length > 0 && event.indexable && !event.inSitemap)
        summary.missingFromSitemap++;
      emit(event);
    }
    this.emitUnparsedSitemapEntries(listedTargets, sitemap, summary, emit);
    return summary;
  }

  private pageInclusion(
    page: StoredPage,
    pageId: number,
    inbound: InboundLinks,
    inSitemap: boolean,
    robots: RobotsRules,
  ): PageInclusionEvent {
    const from = inbound.starts[pageId] ?? 0;
    const sources = Array.from(
      inbound.sources.subarray(from, from + (inbound.filled[pageId] ?? 0)),
      (source) => this.pages[source]?.url,
    ).filter((url): url is string => url !== undefined);
    const facts = indexability({
      statusCode: page.statusCode,
      robotsMeta: page.robotsMeta,
      xRobotsTag: page.xRobotsTag,
      canonical: page.canonical,
      url: page.url,
      allowedByRobotsTxt: robots.isAllowed(page.url),
    });
    const inboundLinks = inbound.counts[pageId] ?? 0;
    const isStart =
      this.options.keyOf(page.url) === this.options.keyOf(this.options.startUrl) || pageId === 0;
    return {
      type: 'page-inclusion',
      page: page.url,
      statusCode: page.statusCode,
      inboundLinks,
      inboundSources: [...new Set(sources)],
      ...facts,
      ...(page.canonical ? { canonical: page.canonical } : {}),
      inSitemap,
      orphan: inSitemap && inboundLinks === 0 && !isStart,
    };
  }

  /** Sitemap entries that are not parsed pages: broken, redirected elsewhere, or not HTML. */
  private emitUnparsedSitemapEntries(
    byKey: ReadonlyMap<string, Target>,
    sitemap: SitemapContents | undefined,
    summary: SitemapSummary,
    emit: (event: ScanEvent) => void,
  ): void {
    for (const url of sitemap?.urls ?? []) {
      const target = byKey.get(this.options.keyOf(url));
      const check = target?.check;
      const redirected = check?.state === 'ok' && check.redirects.length > 0;
      if (pageIdOf(target) !== undefined && !redirected) continue; // a parsed page: reported above
      let reason = 'not-checked';
      if (redirected) {
        summary.redirected++;
        reason = 'redirect';
      } else if (check?.state === 'broken') {
        summary.broken++;
        reason = 'status';
      } else if (check?.state === 'ok') {
        summary.notIndexable++;
        reason = 'not-html';
      }
      // A redirected entry is described by its redirect (301, 302 …), not by where it lands.
      const firstHop = check && 'redirects' in check ? check.redirects[0] : undefined;
      const statusCode = redirected
        ? firstHop?.statusCode
        : check && 'statusCode' in check
          ? check.statusCode
          : undefined;
      emit({
        type: 'page-inclusion',
        page: url,
        ...(statusCode !== undefined ? { statusCode } : {}),
        inboundLinks: 0,
        inboundSources: [],
        indexable: false,
        notIndexableBecause: [reason],
        inSitemap: true,
        orphan: false,
      });
    }
  }

  /**
   * Inbound links per page, summed over every address that reaches it (redirects included), and
   * up to `maxInboundSources` distinct pages linking to it: counts in one typed array, sources in
   * one flat array by page (offsets first), so a million pages cost a few tens of MB, not an
   * object and a set each.
   */
  private inboundByPage(targets: Target[]): InboundLinks {
    const pageCount = this.pages.length;
    const counts = new Int32Array(pageCount);
    const starts = new Int32Array(pageCount + 1);
    const graph = this.graph;
    if (!graph) return { counts, starts, sources: new Int32Array(0), filled: counts };
    for (const target of targets) {
      const pageId = pageIdOf(target);
      if (pageId !== undefined && pageId < pageCount)
        counts[pageId]! += graph.inboundLinks(target.id);
    }
    const destinationOf = (edge: number) => {
      const pageId = pageIdOf(targets[graph.to.at(edge)]);
      return pageId !== undefined && pageId < pageCount ? pageId : -1;
    };
    // Room per page: its edges, at most maxInboundSources; then the distinct sources, in order.
    for (let edge = 0; edge < graph.from.length; edge++) {
      const page = destinationOf(edge);
      if (page >= 0 && starts[page + 1]! < maxInboundSources) starts[page + 1]!++;
    }
    for (let page = 0; page < pageCount; page++) starts[page + 1]! += starts[page]!;
    const sources = new Int32Array(starts[pageCount]!);
    const filled = new Int32Array(pageCount);
    for (let edge = 0; edge < graph.from.length; edge++) {
      const page = destinationOf(edge);
      if (page < 0) continue;
      const source = graph.from.at(edge);
      const from = starts[page]!;
      const used = filled[page]!;
      if (from + used >= starts[page + 1]!) continue;
      if (sources.subarray(from, from + used).includes(source)) continue;
      sources[from + used] = source;
      filled[page] = used + 1;
    }
    return { counts, starts, sources, filled };
  }
}

/** Inbound links by page id (see SiteAnalysis.inboundByPage). */
interface InboundLinks {
  counts: Int32Array;
  starts: Int32Array;
  sources: Int32Array;
  /** How many of a page's slots in `sources` hold a source. */
  filled: Int32Array;
}

/** Pages named as linking to a page, at most (page inclusion shows them). */
const maxInboundSources = 20;

/**
 * The link graph as page → page edges, one per distinct pair: two addresses of one page (a
 * redirect) make one edge. Edges are grouped by source page (a counting sort, O(edges)) and each
 * page's repeats dropped with a small set: no key per edge is ever made.
 */
function pageEdges(
  graph: LinkGraph,
  targets: Target[],
  pageCount: number,
): { from: Int32Array; to: Int32Array } {
  const edges = graph.from.length;
  // A page whose links were taken but which was never recorded has no rank: its edges go.
  const sourceOf = (edge: number) => {
    const source = graph.from.at(edge);
    return source < pageCount ? source : -1;
  };
  const start = new Int32Array(pageCount + 1);
  for (let edge = 0; edge < edges; edge++) {
    const source = sourceOf(edge);
    if (source >= 0) start[source + 1]!++;
  }
  for (let page = 0; page < pageCount; page++) start[page + 1]! += start[page]!;
  const fill = start.slice(0, pageCount);
  const grouped = new Int32Array(edges);
  for (let edge = 0; edge < edges; edge++) {
    const source = sourceOf(edge);
    if (source >= 0) grouped[fill[source]!++] = pageIdOf(targets[graph.to.at(edge)]) ?? -1;
  }
  const from = new IntList(Math.max(1, edges));
  const to = new IntList(Math.max(1, edges));
  const destinations = new Set<number>();
  for (let source = 0; source < pageCount; source++) {
    destinations.clear();
    for (let edge = start[source]!; edge < start[source + 1]!; edge++) {
      const destination = grouped[edge]!;
      if (destination < 0 || destination === source || destinations.has(destination)) continue;
      destinations.add(destination);
      from.push(source);
      to.push(destination);
    }
  }
  return { from: from.toArray(), to: to.toArray() };
}

/**
 * The resources of a page that answered, with their type and size, and those of its stylesheets
 * (each once, through any @import chain). A loop: this runs per page.
 */
function sizedResources(
  page: StoredPage,
  resourceIds: IntList,
  targets: Target[],
  stylesheetResources: ReadonlyMap<number, number[]>,
): SizedResource[] {
  const resources: SizedResource[] = [];
  const add = (id: number) => {
    const check = targets[id]?.check;
    if (check?.state === 'ok')
      resources.push({ contentType: check.contentType ?? '', size: check.size });
  };
  let seen: Set<number> | undefined;
  for (let index = page.firstResource; index < page.firstResource + page.resourceCount; index++) {
    const id = resourceIds.at(index);
    if (stylesheetResources.size === 0 || !stylesheetResources.has(id)) add(id);
    else seen = addStylesheet(id, stylesheetResources, seen ?? pageIds(page, resourceIds), add);
  }
  return resources;
}

/** The page's own resources: a stylesheet's resource among them is not counted twice. */
function pageIds(page: StoredPage, resourceIds: IntList): Set<number> {
  const ids = new Set<number>();
  for (let index = page.firstResource; index < page.firstResource + page.resourceCount; index++)
    ids.add(resourceIds.at(index));
  return ids;
}

/** A stylesheet and, depth first, what it references that the page does not count already. */
function addStylesheet(
  id: number,
  stylesheetResources: ReadonlyMap<number, number[]>,
  seen: Set<number>,
  add: (id: number) => void,
): Set<number> {
  const stack = [id];
  add(id);
  while (stack.length > 0) {
    for (const child of stylesheetResources.get(stack.pop()!) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      add(child);
      if (stylesheetResources.has(child)) stack.push(child);
    }
  }
  return seen;
}

/**
 * Per content type over every file fetched successfully: how many, how many bytes. A redirect and
 * the address it leads to are one file, counted once at its final address.
 */
function fileTypes(
  targets: Target[],
  keyOf: (url: string) => string,
): SiteAnalysisSummary['fileTypes'] {
  const files = new Map<string, { contentType: string; size: number | undefined }>();
  for (const target of targets) {
    const check = target.check;
    if (check?.state !== 'ok') continue;
    const key = keyOf(check.finalUrl);
    const size = target.bytes ?? check.size;
    const known = files.get(key);
    if (known && (known.size !== undefined || size === undefined)) continue;
    files.set(key, { contentType: baseContentType(check.contentType), size });
  }
  const totals = new Map<string, { count: number; totalSize: number }>();
  for (const file of files.values()) {
    const entry = totals.get(file.contentType) ?? { count: 0, totalSize: 0 };
    entry.count++;
    entry.totalSize += file.size ?? 0;
    totals.set(file.contentType, entry);
  }
  return [...totals]
    .map(([contentType, entry]) => ({ contentType, ...entry }))
    .sort((a, b) => b.totalSize - a.totalSize || a.contentType.localeCompare(b.contentType));
}
