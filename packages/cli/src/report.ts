import {
  endingStatus,
  limits,
  ScanStatus,
  type FailureReason,
  type Suggestion,
} from '@linkaudit/core';
import type {
  CertificateEvent,
  DoneEvent,
  DuplicateAnchorEvent,
  LinkCheck,
  LinkEvent,
  OkWarning,
  PageInclusionEvent,
  PageRankEvent,
  PageSizeEvent,
  RuleViolationEvent,
  ScanEvent,
  ScanSummary,
} from '@linkaudit/engine';
import { ruleInfo, type RuleInfo } from './rules.js';

/** Where a link was found. */
export interface LinkSource {
  url: string;
  element: string;
  attribute: string;
  line: number;
  column: number;
  /** Only in the page as rendered (--render): script made it or requested it; no line. */
  rendered?: true;
}

export type BrokenCheck = Extract<LinkCheck, { state: 'broken' }>;
export type UnverifiedCheck = Extract<LinkCheck, { state: 'unverified' }>;

/** A checked URL that needs attention, with every place that links to it. */
export interface ProblemUrl<Check> {
  url: string;
  check: Check;
  /** Link occurrences pointing at the URL. */
  referenceCount: number;
  sources: LinkSource[];
  /** The engine's suggested fix for it (issue 27), when it has one. */
  suggestion?: Suggestion;
}
export type BrokenUrl = ProblemUrl<BrokenCheck>;
export type UnverifiedUrl = ProblemUrl<UnverifiedCheck>;
/** A working link with a warning: a soft 404 or a login wall (issue 35). */
export type WarnedCheck = Extract<LinkCheck, { state: 'ok' }> & { warning: OkWarning };
export type WarnedUrl = ProblemUrl<WarnedCheck>;

export type SkippedCheck = Extract<LinkCheck, { state: 'skipped' }>;

/**
 * The skips the engine chose to protect the scan, which every format lists: links into crawler
 * traps, links past a page's cap, and links found after the scan stopped at a limit. (Skips the
 * user asked for — exclusions, robots.txt, --no-images, mailto: — are not listed.) In this order.
 */
export const notCheckedCauses = ['crawler-trap', 'link-cap', 'limit'] as const;
export type NotCheckedCause = (typeof notCheckedCauses)[number];
export type NotCheckedCheck = SkippedCheck & { cause: NotCheckedCause };

/**
 * A URL not checked on purpose. Its sources are the first `notCheckedSourcesKept` by position
 * (referenceCount counts them all): a scan stopped at its limit can leave a link in the layout
 * of every page unchecked, and the list would otherwise grow with the site.
 */
export type NotCheckedUrl = ProblemUrl<NotCheckedCheck>;
export const notCheckedSourcesKept = 10;

/** The heading of each cause in the text report (and its short label elsewhere). */
export const notCheckedTitles: Record<NotCheckedCause, string> = {
  'crawler-trap': 'Crawler traps',
  'link-cap': 'Links past the per-page cap',
  limit: 'Not reached: the scan stopped at its limit',
};

/** A #fragment that names no element of its page, with every link that uses it. */
export interface BrokenAnchor {
  /** The link target as written, with its #fragment. */
  url: string;
  /** The page it points into (the target without its fragment). */
  page: string;
  /** The fragment with its leading #, as the engine reports it. */
  fragment: string;
  referenceCount: number;
  sources: LinkSource[];
  /** The closest id on the page, when one clearly is (issue 27). */
  suggestion?: Suggestion;
}

/** A URL that works but is better written otherwise: a redirect's end, or its https twin. */
export interface LinkFix {
  url: string;
  suggestion: Suggestion;
}

/** The optional checks the scan ran: their results are reported only when they were asked for. */
export interface ReportChecks {
  anchors: boolean;
  pageRank: boolean;
  pageInclusion: boolean;
  /** Ids of the quality rules the scan ran (--rules); empty when none. */
  rules: readonly number[];
}

/** A quality-rule violation, with only what the reports show (the rule is looked up by id). */
export interface RuleFinding {
  ruleId: number;
  /** The page. */
  url: string;
  line: number;
  column: number;
  /** The offending source, at most 120 characters, as the engine gives it. */
  snippet: string;
  message: string | undefined;
}

/** One rule the scan ran (or that reported), with its violations by page, line and column. */
export interface RuleResult {
  rule: RuleInfo;
  violations: RuleFinding[];
}

/** With --rules: what the engine tallied and every violation. */
export interface RuleReport {
  /** done.summary.rules; undefined when the scan ended before it counted anything. */
  summary: NonNullable<ScanSummary['rules']> | undefined;
  /** Every selected rule, and any other that reported a violation, by id. */
  results: RuleResult[];
  /** Every violation, sorted by page, line, column and rule id. */
  violations: RuleFinding[];
}

/** How many of the heaviest pages the report keeps whatever their size. */
export const heaviestPageCount = 10;

/** The engine's done event with the status code its ending maps to (shown and exited by). */
export type FinishedScan = DoneEvent & { status: ScanStatus };

/** What every output format is written from. */
export interface ScanReport {
  done: FinishedScan;
  checks: ReportChecks;
  /** Sorted by URL; their sources by page, line and column. */
  broken: BrokenUrl[];
  unverified: UnverifiedUrl[];
  /** Working links that are perhaps not what they mean (soft 404s, login walls), by URL. */
  warnings: WarnedUrl[];
  /** What the engine did not check on purpose: by cause (notCheckedCauses order), then URL. */
  notChecked: NotCheckedUrl[];
  /** Link occurrences whose target was fine (and, with --anchors, whose #fragment was found). */
  okLinks: number;
  /** Sorted by URL (with the fragment); their sources by page, line and column. */
  brokenAnchors: BrokenAnchor[];
  /** Link occurrences whose #fragment could not be looked for (the target is not readable HTML). */
  unverifiableAnchors: number;
  /** Sorted by page, then by the position of the repeat. */
  duplicateAnchors: DuplicateAnchorEvent[];
  /** Every https host inspected, valid or not, sorted by host. */
  certificates: CertificateEvent[];
  /** Pages over limits.fattestPageBytes, heaviest first. */
  fattestPages: PageSizeEvent[];
  /** The heaviest pages whatever their size (at most heaviestPageCount), heaviest first. */
  heaviestPages: PageSizeEvent[];
  /** With --page-rank: every page, best first. */
  pageRanks?: PageRankEvent[];
  /** With --page-inclusion: every page and sitemap entry, sorted by address. */
  pageInclusion?: PageInclusionEvent[];
  /** With --rules: the quality rules' results. */
  rules?: RuleReport;
  /** Working links with a better address (redirects, https), sorted by URL. */
  linkFixes: LinkFix[];
  /**
   * With --baseline: how many known problems were left out (only new ones are listed), and the
   * baseline's problems this run no longer found (their keys, sorted).
   */
  baseline?: { known: number; fixed: string[] };
}

/**
 * Collects what the output needs and nothing else: OK links are only counted, and of the
 * page-level results only the problems (broken and duplicate anchors, fat pages), the few heaviest
 * pages, the certificates (one per host) and the results of a check that was asked for are kept, so
 * memory grows with what is wrong, not with the size of the site.
 */
export class ReportCollector {
  private readonly checks: ReportChecks;
  private readonly broken = new Map<string, BrokenUrl>();
  private readonly unverified = new Map<string, UnverifiedUrl>();
  private readonly warnings = new Map<string, WarnedUrl>();
  private readonly notChecked = new Map<string, NotCheckedUrl>();
  private readonly brokenAnchors = new Map<string, BrokenAnchor>();
  private readonly duplicateAnchors: DuplicateAnchorEvent[] = [];
  private readonly certificates: CertificateEvent[] = [];
  private readonly fattestPages: PageSizeEvent[] = [];
  private readonly heaviestPages: PageSizeEvent[] = [];
  private readonly pageRanks: PageRankEvent[] = [];
  private readonly pageInclusion: PageInclusionEvent[] = [];
  private readonly ruleFindings: RuleFinding[] = [];
  /** What violations said about rules the catalogue does not know (custom rules). */
  private readonly ruleNames = new Map<number, { name: string; categoryID: number }>();
  /** One copy of each page address and message, however many violations repeat them. */
  private readonly strings = new Map<string, string>();
  /** Suggested fixes by URL (and fragment): they come after the crawl, so after the links. */
  private readonly suggestions = new Map<string, Suggestion>();
  private okLinks = 0;
  private linkEvents = 0;
  private unverifiableAnchors = 0;
  private urlless = 0;
  private readonly okLinksOmitted: boolean;

  /**
   * `okLinksOmitted`: the engine ran with `linkEvents: 'problems'`, so links that are fine come
   * as no event; they are the link occurrences of the summary that no event stood for.
   */
  constructor(checks: Partial<ReportChecks> = {}, options: { okLinksOmitted?: boolean } = {}) {
    this.okLinksOmitted = options.okLinksOmitted ?? false;
    this.checks = {
      anchors: false,
      pageRank: false,
      pageInclusion: false,
      rules: [],
      ...checks,
    };
  }

  /** Takes any scan event; progress, pages and done are not part of the report. */
  add(event: ScanEvent): void {
    switch (event.type) {
      case 'link':
        this.addLink(event);
        break;
      case 'duplicate-anchor':
        this.duplicateAnchors.push(event);
        break;
      case 'certificate':
        this.certificates.push(event);
        break;
      case 'page-size':
        this.addPageSize(event);
        break;
      case 'page-rank':
        if (this.checks.pageRank) this.pageRanks.push(event);
        break;
      case 'page-inclusion':
        if (this.checks.pageInclusion) this.pageInclusion.push(event);
        break;
      case 'rule':
        this.addRuleViolation(event);
        break;
      case 'suggestion':
        this.suggestions.set(suggestionKey(event.url, event.fragment), event.suggestion);
        break;
      default:
        break;
    }
  }

  /** Whether the report has rule results: they are described from the loaded rule catalogue. */
  get hasRuleResults(): boolean {
    return this.checks.rules.length > 0 || this.ruleFindings.length > 0;
  }

  finish(done: DoneEvent): ScanReport {
    this.attachSuggestions();
    return {
      done: { ...done, status: endingStatus(done) },
      checks: this.checks,
      broken: sortProblems(this.broken),
      unverified: sortProblems(this.unverified),
      warnings: sortProblems(this.warnings),
      notChecked: sortNotChecked(this.notChecked),
      okLinks: this.okLinks + this.omittedOkLinks(done),
      brokenAnchors: sortProblems(this.brokenAnchors),
      unverifiableAnchors: this.unverifiableAnchors,
      duplicateAnchors: this.duplicateAnchors.sort(
        (a, b) =>
          compareText(a.page, b.page) ||
          a.duplicate.line - b.duplicate.line ||
          a.duplicate.column - b.duplicate.column ||
          compareText(a.name, b.name),
      ),
      certificates: this.certificates.sort((a, b) => compareText(a.host, b.host)),
      fattestPages: this.fattestPages.sort(compareWeight),
      heaviestPages: this.heaviestPages,
      ...(this.checks.pageRank
        ? {
            pageRanks: this.pageRanks.sort(
              (a, b) => b.rank - a.rank || compareText(a.page, b.page),
            ),
          }
        : {}),
      ...(this.checks.pageInclusion
        ? { pageInclusion: this.pageInclusion.sort((a, b) => compareText(a.page, b.page)) }
        : {}),
      ...(this.hasRuleResults ? { rules: this.ruleReport(done) } : {}),
      linkFixes: this.linkFixes(),
    };
  }

  /** Each problem gets its suggestion; what is left are fixes for links that work. */
  private attachSuggestions(): void {
    const take = (key: string): Suggestion | undefined => {
      const suggestion = this.suggestions.get(key);
      this.suggestions.delete(key);
      return suggestion;
    };
    for (const item of [...this.broken.values(), ...this.unverified.values()]) {
      const suggestion = take(suggestionKey(item.url));
      if (suggestion) item.suggestion = suggestion;
    }
    for (const anchor of this.brokenAnchors.values()) {
      const suggestion = take(suggestionKey(anchor.page, anchor.fragment));
      if (suggestion) anchor.suggestion = suggestion;
    }
  }

  private linkFixes(): LinkFix[] {
    return [...this.suggestions]
      .filter(([key, suggestion]) => !key.includes('\u0000') && suggestion.url !== null)
      .map(([url, suggestion]) => ({ url, suggestion }))
      .sort((a, b) => compareText(a.url, b.url));
  }

  /**
   * A violation keeps six fields, its page address and message shared with the violations that
   * repeat them: a large site with every rule on can report ~100,000 of them.
   */
  private addRuleViolation(event: RuleViolationEvent): void {
    if (!this.ruleNames.has(event.ruleId)) {
      this.ruleNames.set(event.ruleId, { name: event.ruleName, categoryID: event.categoryID });
    }
    this.ruleFindings.push({
      ruleId: event.ruleId,
      url: this.intern(event.url),
      line: event.line,
      column: event.column,
      snippet: event.snippet,
      message: event.message === undefined ? undefined : this.intern(event.message),
    });
  }

  private intern(text: string): string {
    const known = this.strings.get(text);
    if (known !== undefined) return known;
    this.strings.set(text, text);
    return text;
  }

  private ruleReport(done: DoneEvent): RuleReport {
    const violations = this.ruleFindings.sort(compareFindings);
    const byRule = new Map<number, RuleFinding[]>(this.checks.rules.map((id) => [id, []]));
    for (const finding of violations) {
      const list = byRule.get(finding.ruleId);
      if (list) list.push(finding);
      else byRule.set(finding.ruleId, [finding]);
    }
    const results = [...byRule]
      .sort(([a], [b]) => a - b)
      .map(([id, list]) => ({ rule: ruleInfo(id, this.ruleNames.get(id)), violations: list }));
    return { summary: done.summary.rules, results, violations };
  }

  private omittedOkLinks(done: DoneEvent): number {
    if (!this.okLinksOmitted) return 0;
    return Math.max(0, done.summary.totalLinks - this.linkEvents);
  }

  private addLink(event: LinkEvent): void {
    this.linkEvents += 1;
    const { check, anchor } = event;
    // A link without a URL (missing attribute, unparseable address) is its own problem: the
    // engine counts each one as a unique broken link, and their reasons may differ.
    const key = event.url === '' ? `\u0000${(this.urlless += 1)}` : event.url;
    if (check.state === 'ok') {
      if (anchor?.state === 'missing') this.addBrokenAnchor(event, anchor.fragment);
      else this.okLinks += 1;
      if (check.warning)
        addOccurrence(this.warnings, key, event, { ...check, warning: check.warning });
      if (anchor?.state === 'unverifiable') this.unverifiableAnchors += 1;
    } else if (check.state === 'broken') addOccurrence(this.broken, key, event, check);
    else if (check.state === 'unverified') addOccurrence(this.unverified, key, event, check);
    else if (isNotChecked(check)) this.addNotChecked(key, event, check);
  }

  private addNotChecked(key: string, event: LinkEvent, check: NotCheckedCheck): void {
    let item = this.notChecked.get(key);
    if (!item) {
      item = { url: event.url, check, referenceCount: 0, sources: [] };
      this.notChecked.set(key, item);
    }
    item.referenceCount += 1;
    keepFirstSources(item.sources, sourceOf(event));
  }

  private addBrokenAnchor(event: LinkEvent, fragment: string): void {
    let anchor = this.brokenAnchors.get(event.target);
    if (!anchor) {
      anchor = { url: event.target, page: event.url, fragment, referenceCount: 0, sources: [] };
      this.brokenAnchors.set(event.target, anchor);
    }
    anchor.referenceCount += 1;
    anchor.sources.push(sourceOf(event));
  }

  /** Fat pages all, and the heaviest few in order (an insertion into a list of ten). */
  private addPageSize(event: PageSizeEvent): void {
    if (event.totalBytes > limits.fattestPageBytes) this.fattestPages.push(event);
    const heaviest = this.heaviestPages;
    if (heaviest.length === heaviestPageCount && compareWeight(event, heaviest.at(-1)!) >= 0)
      return;
    let index = heaviest.length;
    while (index > 0 && compareWeight(event, heaviest[index - 1]!) < 0) index -= 1;
    heaviest.splice(index, 0, event);
    if (heaviest.length > heaviestPageCount) heaviest.pop();
  }
}

/** Heaviest first; pages of one weight by address. */
function compareWeight(a: PageSizeEvent, b: PageSizeEvent): number {
  return b.totalBytes - a.totalBytes || compareText(a.page, b.page);
}

function sourceOf({ source, element, attribute, line, column, rendered }: LinkEvent): LinkSource {
  const found: LinkSource = { url: source, element, attribute, line, column };
  if (rendered) found.rendered = true;
  return found;
}

function addOccurrence<Check>(
  problems: Map<string, ProblemUrl<Check>>,
  key: string,
  event: LinkEvent,
  check: Check,
): void {
  // The engine checks each URL once, so the first occurrence's check stands for all of them.
  let problem = problems.get(key);
  if (!problem) {
    problem = { url: event.url, check, referenceCount: 0, sources: [] };
    problems.set(key, problem);
  }
  problem.referenceCount += 1;
  problem.sources.push(sourceOf(event));
}

function isNotChecked(check: SkippedCheck): check is NotCheckedCheck {
  return (notCheckedCauses as readonly string[]).includes(check.cause);
}

/** Adds a source, keeping only the first notCheckedSourcesKept in position order. */
function keepFirstSources(sources: LinkSource[], source: LinkSource): void {
  if (sources.length === notCheckedSourcesKept) {
    if (compareSources(source, sources.at(-1)!) >= 0) return;
    sources.pop();
  }
  let index = sources.length;
  while (index > 0 && compareSources(source, sources[index - 1]!) < 0) index -= 1;
  sources.splice(index, 0, source);
}

function sortNotChecked(items: Map<string, NotCheckedUrl>): NotCheckedUrl[] {
  const rank = (item: NotCheckedUrl) => notCheckedCauses.indexOf(item.check.cause);
  return sortProblems(items).sort((a, b) => rank(a) - rank(b));
}

function sortProblems<Problem extends { url: string; sources: LinkSource[] }>(
  problems: Map<string, Problem>,
): Problem[] {
  const list = [...problems.values()];
  for (const problem of list) problem.sources.sort(compareSources);
  return list.sort(
    (a, b) => compareText(a.url, b.url) || compareSources(a.sources[0]!, b.sources[0]!),
  );
}

/** Code-unit order: the same on every machine, whatever its locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareFindings(a: RuleFinding, b: RuleFinding): number {
  return compareText(a.url, b.url) || a.line - b.line || a.column - b.column || a.ruleId - b.ruleId;
}

function compareSources(a: LinkSource, b: LinkSource): number {
  return (
    compareText(a.url, b.url) ||
    a.line - b.line ||
    a.column - b.column ||
    compareText(a.element, b.element) ||
    compareText(a.attribute, b.attribute)
  );
}

const statusNames = new Map<number, string>(
  Object.entries(ScanStatus).map(([name, code]) => [code, name]),
);

/** The name of a status code as in core's ScanStatus ("Complete", "OverMaxLinks", …). */
export function statusName(status: number): string {
  return statusNames.get(status) ?? `Status ${status}`;
}

/** A failure reason as an identifier: "Not Found" → "not-found". */
export function reasonSlug(reason: FailureReason): string {
  return reason.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

/** How a URL reads in a report: the engine gives a missing or empty attribute the URL "". */
export function displayUrl(url: string): string {
  return url === '' ? '(no address)' : url;
}

/**
 * "page:line:column (element attribute)", the way editors and terminals link locations; a link
 * only the rendered page has is in no file: "page (rendered: element attribute)".
 */
export function formatSource(source: LinkSource): string {
  if (source.rendered) return `${source.url} (rendered: ${source.element} ${source.attribute})`;
  return `${source.url}:${source.line}:${source.column} (${source.element} ${source.attribute})`;
}

/** "404 Not Found" once, whether or not the message already starts with the status code. */
export function describeAnswer(statusCode: number | undefined, message: string): string {
  if (statusCode === undefined || message.startsWith(String(statusCode))) return message;
  return `${statusCode} ${message}`;
}

/** Unique broken URLs per reason, most frequent first (ties by name). */
export function groupByReason(broken: readonly BrokenUrl[]): [FailureReason, BrokenUrl[]][] {
  const groups = new Map<FailureReason, BrokenUrl[]>();
  for (const item of broken) {
    const group = groups.get(item.check.reason);
    if (group) group.push(item);
    else groups.set(item.check.reason, [item]);
  }
  return [...groups].sort(([a, x], [b, y]) => y.length - x.length || compareText(a, b));
}

/** "#team" → "team": the name an id or a[name] would need to have. */
export function anchorName(fragment: string): string {
  return fragment.startsWith('#') ? fragment.slice(1) : fragment;
}

/** One SPEC §9 page-size bucket: [fromBytes, toBytes), the last one open-ended (toBytes null). */
export interface SizeBucket {
  fromBytes: number;
  toBytes: number | null;
  pages: number;
}

/** summary.pageSizeBuckets with their bounds: under 1 MiB, 1–2, 2–3, 3–4, 4–5, 5 MiB and over. */
export function sizeBuckets(summary: ScanSummary): SizeBucket[] {
  const bounds = [0, ...limits.pageSizeBucketsMb.map((mb) => mb * limits.bytesPerMb)];
  return bounds.map((fromBytes, index) => ({
    fromBytes,
    toBytes: bounds[index + 1] ?? null,
    pages: summary.pageSizeBuckets[index] ?? 0,
  }));
}

/** Hosts whose certificate is not valid, and valid ones that expire within 30 days. */
export function certificateProblems(report: ScanReport): {
  invalid: CertificateEvent[];
  expiring: CertificateEvent[];
} {
  return {
    invalid: report.certificates.filter((certificate) => !certificate.valid),
    expiring: report.certificates.filter(
      (certificate) => certificate.valid && certificate.expiresSoon,
    ),
  };
}

/** The address of a host's certificate as a URL, for formats that locate results by URI. */
export function hostUrl(host: string): string {
  return `https://${host}/`;
}

/**
 * A sitemap entry that does not answer: listed in the sitemap, not indexable because of its
 * status, and not a page that was read (a crawled page answered 2xx).
 */
export function isBrokenSitemapEntry(entry: PageInclusionEvent): boolean {
  const answered =
    entry.statusCode !== undefined && entry.statusCode >= 200 && entry.statusCode < 300;
  return entry.inSitemap && entry.notIndexableBecause.includes('status') && !answered;
}

/** What a page-inclusion entry is, as the CSV reason and the JUnit classname say it. */
export function inclusionReason(
  entry: PageInclusionEvent,
): 'orphan' | 'in-sitemap' | 'not-in-sitemap' {
  return entry.orphan ? 'orphan' : entry.inSitemap ? 'in-sitemap' : 'not-in-sitemap';
}

/**
 * A page-inclusion entry in one line: its incoming links and indexability, a warning first for an
 * orphan page and for a sitemap entry that does not answer (warnings never fail a run).
 */
export function inclusionMessage(entry: PageInclusionEvent): string {
  const linked = entry.inboundSources.length > 0 ? `: ${entry.inboundSources.join(' ')}` : '';
  const indexing = entry.indexable
    ? 'indexable'
    : `not indexable (${entry.notIndexableBecause.join(', ')})`;
  const facts = `Linked from ${entry.inboundSources.length} page(s)${linked}; ${indexing}`;
  if (isBrokenSitemapEntry(entry)) {
    return `warning: listed in the sitemap but answers ${entry.statusCode ?? 'nothing'}; ${facts}`;
  }
  if (entry.orphan)
    return `warning: orphan page, listed in the sitemap and linked from no crawled page; ${facts}`;
  return facts;
}

/** Snippets and messages are page source: on one line, without control characters. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  return text.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
}

/** A suggestion's key: the URL, and the fragment when it is for one fragment only. */
function suggestionKey(url: string, fragment?: string): string {
  return fragment === undefined ? url : `${url}\u0000${fragment}`;
}
