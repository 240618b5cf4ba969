import type { LinkKind, PageInclusionEvent, ScanEvent, SitemapSummary } from '../events.js';
import { pageIdOf, type Target } from '../crawl/targets.js';
import type { SiteAnalysisSummary } from '../scan-tally.js';
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
import type { SitemapContents } from './sitemaps.js';

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
  /**
   * Distinct resources the page references (images, CSS, scripts, fonts, media), by target id.
   * (A plain array of small integers: a typed array per page costs ~150 bytes more, 7 MB over
   * 50,000 pages kept to the end of the scan.)
   */
  resources: readonly number[];
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
  private readonly pages: PageRecord[] = [];
  private readonly graph: LinkGraph | undefined;
  brokenAnchors = 0;
  duplicateAnchors = 0;
  certificateProblems = 0;

  constructor(private readonly options: SiteAnalysisOptions) {
    if (options.pageRank || options.pageInclusion) this.graph = new LinkGraph();
  }

  recordPage(pageId: number, record: PageRecord): void {
    this.pages[pageId] = record;
  }

  /** An internal link from a parsed page, for the link graph. */
  recordInternalLink(pageId: number, pageTargetId: number, targetId: number): void {
    this.graph?.addLink(pageId, targetId, pageTargetId);
  }

  /** Every result event of the analysis, then the summary fields it owns. */
  finish(
    targets: Target[],
    site: SiteFiles,
    emit: (event: ScanEvent) => void,
  ): SiteAnalysisSummary {
    const sizes = this.emitPageSizes(targets, emit);
    if (this.options.pageRank) this.emitPageRanks(targets, emit);
    const sitemapSummary = this.options.pageInclusion
      ? this.emitInclusion(targets, site, emit)
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

  private emitPageSizes(targets: Target[], emit: (event: ScanEvent) => void) {
    const buckets = [0, 0, 0, 0, 0, 0];
    let fattest = 0;
    for (const page of this.pages) {
      if (!page) continue;
      const size = pageSize(page.htmlBytes, page.contentType, sizedResources(page, targets));
      buckets[pageSizeBucket(size.totalBytes)]!++;
      if (isFatPage(size.totalBytes)) fattest++;
      emit({ type: 'page-size', page: page.url, ...size });
    }
    return { buckets, fattest };
  }

  private emitPageRanks(targets: Target[], emit: (event: ScanEvent) => void): void {
    const graph = this.graph;
    if (!graph) return;
    const from: number[] = [];
    const to: number[] = [];
    const seen = new Set<string>();
    for (let edge = 0; edge < graph.from.length; edge++) {
      const source = graph.from.at(edge);
      const destination = pageIdOf(targets[graph.to.at(edge)]);
      if (destination === undefined || destination === source) continue;
      const key = `${source}:${destination}`;
      if (seen.has(key)) continue; // two addresses of one page (a redirect) are one edge
      seen.add(key);
      from.push(source);
      to.push(destination);
    }
    const ranks = computePageRank(this.pages.length, from, to);
    const scores = pageRankScores(ranks);
    this.pages.forEach((page, pageId) => {
      if (page)
        emit({
          type: 'page-rank',
          page: page.url,
          rank: ranks[pageId] ?? 0,
          score: scores[pageId] ?? 0,
        });
    });
  }

  private emitInclusion(
    targets: Target[],
    { sitemap, robots }: SiteFiles,
    emit: (event: ScanEvent) => void,
  ): SitemapSummary {
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
    const listedPages = new Set<number>();
    for (const target of targets) {
      const pageId = pageIdOf(target);
      if (pageId !== undefined && inSitemap.has(this.options.keyOf(target.url)))
        listedPages.add(pageId);
    }
    this.pages.forEach((page, pageId) => {
      if (!page) return;
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
    });
    this.emitUnparsedSitemapEntries(targets, sitemap, summary, emit);
    return summary;
  }

  private pageInclusion(
    page: PageRecord,
    pageId: number,
    inbound: Map<number, { count: number; sources: Set<string> }>,
    inSitemap: boolean,
    robots: RobotsRules,
  ): PageInclusionEvent {
    const links = inbound.get(pageId);
    const facts = indexability({
      statusCode: page.statusCode,
      robotsMeta: page.robotsMeta,
      xRobotsTag: page.xRobotsTag,
      canonical: page.canonical,
      url: page.url,
      allowedByRobotsTxt: robots.isAllowed(page.url),
    });
    const inboundLinks = links?.count ?? 0;
    const isStart =
      this.options.keyOf(page.url) === this.options.keyOf(this.options.startUrl) || pageId === 0;
    return {
      type: 'page-inclusion',
      page: page.url,
      statusCode: page.statusCode,
      inboundLinks,
      inboundSources: [...(links?.sources ?? [])].slice(0, 20),
      ...facts,
      ...(page.canonical ? { canonical: page.canonical } : {}),
      inSitemap,
      orphan: inSitemap && inboundLinks === 0 && !isStart,
    };
  }

  /** Sitemap entries that are not parsed pages: broken, redirected elsewhere, or not HTML. */
  private emitUnparsedSitemapEntries(
    targets: Target[],
    sitemap: SitemapContents | undefined,
    summary: SitemapSummary,
    emit: (event: ScanEvent) => void,
  ): void {
    const byKey = new Map(targets.map((target) => [this.options.keyOf(target.url), target]));
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

  /** Inbound links per page, summed over every address that reaches it (redirects included). */
  private inboundByPage(targets: Target[]): Map<number, { count: number; sources: Set<string> }> {
    const inbound = new Map<number, { count: number; sources: Set<string> }>();
    const graph = this.graph;
    if (!graph) return inbound;
    const sourcesByTarget = graph.sourcesByTarget(20);
    for (const target of targets) {
      const pageId = pageIdOf(target);
      if (pageId === undefined) continue;
      const entry = inbound.get(pageId) ?? { count: 0, sources: new Set<string>() };
      entry.count += graph.inboundLinks(target.id);
      for (const sourcePage of sourcesByTarget.get(target.id) ?? []) {
        const url = this.pages[sourcePage]?.url;
        if (url) entry.sources.add(url);
      }
      inbound.set(pageId, entry);
    }
    return inbound;
  }
}

/** The resources of a page that answered, with their type and size (a loop: this runs per page). */
function sizedResources(page: PageRecord, targets: Target[]): SizedResource[] {
  const resources: SizedResource[] = [];
  for (const id of page.resources) {
    const check = targets[id]?.check;
    if (check?.state === 'ok')
      resources.push({ contentType: check.contentType ?? '', size: check.size });
  }
  return resources;
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
