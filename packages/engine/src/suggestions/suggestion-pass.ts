import { FailureReason, type Suggestion, type SuggestionBasis } from '@linkaudit/core';
import type { LinkCheck, ScanEvent, SuggestionEvent } from '../events.js';
import { HtmlLinkExtractor } from '../extract/html-links.js';
import type { HttpClient } from '../fetch/http-client.js';
import type { PhaseBudget } from '../phase-budget.js';
import { closestAnchor } from './closest-anchor.js';
import { PageIndex } from './closest-page.js';
import { linkTextAt } from './link-text.js';
import { fetchText } from './page-fetch.js';

/** A checked URL as the pass needs it (the crawl's targets). */
export interface CheckedUrl {
  url: string;
  internal: boolean;
  alias?: boolean;
  check?: LinkCheck;
}

export interface SuggestionPassOptions {
  client: HttpClient;
  /** Pages fetched again at most (link texts, anchor ids, https twins): the pass stays short. */
  maxFetches: number;
  /** Certificates are verified: only then is an https twin worth offering. */
  verifiesCertificates: boolean;
  /**
   * The time of the pass's fetches: past it, fetches under way are given up and the fixes that
   * needed them are left out, so a scan's end is never held long by slow hosts. (The guesses
   * after the fetches are bounded by their phase budget.)
   */
  deadlineMs: number;
  /** Whether a URL may be fetched again (not those a kept result answered: crawl/result-cache.ts). */
  fetchable?: (url: string) => boolean;
}

const concurrency = 4;

/** The first broken link to a missing page, where it is: its text is read back from there. */
interface FirstLink {
  url: string;
  source: string;
  line: number;
  column: number;
}
const explained: Partial<Record<string, SuggestionBasis>> = {
  [FailureReason.InvalidCertificate]: 'certificate',
  [FailureReason.TimeOut]: 'timeout',
  [FailureReason.InvalidRemoteName]: 'dns',
};

/**
 * Suggested fixes (issue 27), worked out once the crawl is over from what it saw: the pages and
 * their titles, the first link to each missing page, the fragments not found. Facts (redirects,
 * plain reasons) need nothing more; guesses that need a page's text fetch it again, within
 * `maxFetches`.
 */
export class SuggestionPass {
  readonly pages = new PageIndex();
  private readonly firstLinks = new Map<string, Omit<FirstLink, 'url'>>();
  private readonly missingFragments = new Map<string, Set<string>>();
  private fetchesLeft: number;

  constructor(private readonly options: SuggestionPassOptions) {
    this.fetchesLeft = options.maxFetches;
  }

  /** Takes note of what the suggestions need from one event of the scan. */
  observe(event: ScanEvent): void {
    if (event.type === 'page' && event.statusCode >= 200 && event.statusCode < 300) {
      this.pages.add(event.finalUrl, event.title);
    } else if (event.type === 'link') {
      if (event.anchor?.state === 'missing') {
        const fragments = this.missingFragments.get(event.url) ?? new Set<string>();
        this.missingFragments.set(event.url, fragments.add(event.anchor.fragment));
      }
      if (
        event.check.state === 'broken' &&
        event.element === 'a' &&
        !this.firstLinks.has(event.url)
      )
        this.firstLinks.set(event.url, {
          source: event.source,
          line: event.line,
          column: event.column,
        });
    }
  }

  /**
   * Emits one suggestion event per URL (or fragment) with a fix; `fetch`: may pages be read.
   * Facts first (they need nothing); then, within the fetch deadline, the fetches: anchor ids,
   * the texts of links to missing pages, https twins; then the closest page of every missing
   * page, each compared with a bounded list of candidates, within `budget`.
   */
  async finish(
    targets: readonly CheckedUrl[],
    fetch: boolean,
    emit: (event: SuggestionEvent) => void,
    budget: PhaseBudget,
  ): Promise<void> {
    const missing: string[] = [];
    const twins: string[] = [];
    for (const target of targets) {
      if (budget.exhausted) return;
      await budget.pace();
      if (target.alias || !target.check) continue;
      const fact = factOf(target.check);
      if (fact) emit({ type: 'suggestion', url: target.url, suggestion: fact });
      else if (isMissingPage(target)) missing.push(target.url);
      else if (fetch && this.isHttpsCandidate(target) && this.fetchable(target.url))
        twins.push(target.url);
    }
    const linkTexts = fetch
      ? await this.fetchPages(missing, twins, emit)
      : new Map<string, string>();
    this.pages.prepare(missing, linkTexts.values());
    try {
      for (const url of missing) {
        if (budget.exhausted) return;
        await budget.pace();
        const guess = this.pages.closest(url, linkTexts.get(url));
        if (guess)
          emit({
            type: 'suggestion',
            url,
            suggestion: suggestion('closest-page', guess.basis, guess.url, guess.confidence),
          });
      }
    } finally {
      this.pages.clear();
    }
  }

  /**
   * The pass's fetches, within its deadline: the fixes of broken links (anchor ids, the texts
   * of links to missing pages, each source page read once) before the https twins of working
   * ones. Resolves with the link texts found, by missing URL.
   */
  private async fetchPages(
    missing: readonly string[],
    twins: readonly string[],
    emit: (event: SuggestionEvent) => void,
  ): Promise<Map<string, string>> {
    const linkTexts = new Map<string, string>();
    const anchors = [...this.missingFragments].map(
      ([url, fragments]) =>
        () =>
          this.suggestAnchors(url, fragments, emit),
    );
    const texts = [...this.linksBySource(missing)].map(
      ([source, links]) =>
        () =>
          this.readLinkTexts(source, links, linkTexts),
    );
    const https = twins.map((url) => () => this.suggestHttps(url, emit));
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.options.deadlineMs);
    this.deadline = deadline.signal;
    try {
      await runLimited([...anchors, ...texts, ...https], concurrency, deadline.signal);
    } finally {
      clearTimeout(timer);
    }
    return linkTexts;
  }

  /** The first link to each missing page, grouped by the page it is on (read once for all). */
  private linksBySource(missing: readonly string[]): Map<string, FirstLink[]> {
    const bySource = new Map<string, FirstLink[]>();
    for (const url of missing) {
      const link = this.firstLinks.get(url);
      if (!link) continue;
      const links = bySource.get(link.source) ?? [];
      if (links.length === 0) bySource.set(link.source, links);
      links.push({ ...link, url });
    }
    return bySource;
  }

  private async readLinkTexts(
    source: string,
    links: readonly FirstLink[],
    linkTexts: Map<string, string>,
  ): Promise<void> {
    const page = await this.fetch(source);
    if (!page) return;
    for (const link of links) {
      const text = linkTextAt(page.text, link.line, link.column);
      if (text) linkTexts.set(link.url, text);
    }
  }

  /** Aborted once the pass's time is up: fetches under way then answer nothing at once. */
  private deadline: AbortSignal | undefined;

  private async suggestAnchors(
    url: string,
    fragments: ReadonlySet<string>,
    emit: (event: SuggestionEvent) => void,
  ): Promise<void> {
    const page = await this.fetch(url);
    if (!page) return;
    const extractor = new HtmlLinkExtractor();
    extractor.write(page.text);
    const ids = extractor.end().anchors.map((anchor) => anchor.name);
    for (const fragment of fragments) {
      const guess = closestAnchor(fragment, ids);
      if (!guess) continue;
      const fixed = `${url}#${encodeURIComponent(guess.id)}`;
      emit({
        type: 'suggestion',
        url,
        fragment,
        suggestion: suggestion('closest-anchor', 'anchor', fixed, guess.confidence),
      });
    }
  }

  private readonly hostsWithoutHttps = new Set<string>();

  private isHttpsCandidate(target: CheckedUrl): boolean {
    const check = target.check;
    return (
      this.options.verifiesCertificates &&
      check?.state === 'ok' &&
      check.redirects.length === 0 &&
      target.url.startsWith('http://')
    );
  }

  /** The https twin is offered when it answers with the same page (same body, or same title). */
  private async suggestHttps(url: string, emit: (event: SuggestionEvent) => void): Promise<void> {
    const secure = new URL(url);
    secure.protocol = 'https:';
    if (this.hostsWithoutHttps.has(secure.host)) return;
    const twin = await this.fetch(secure.href);
    if (!twin || !twin.finalUrl.startsWith('https://')) {
      this.hostsWithoutHttps.add(secure.host);
      return;
    }
    const plain = await this.fetch(url);
    if (plain && samePage(plain.text, twin.text))
      emit({
        type: 'suggestion',
        url,
        suggestion: suggestion('https', 'https', secure.href, null),
      });
  }

  private fetchable(url: string): boolean {
    return this.options.fetchable?.(url) ?? true;
  }

  private async fetch(url: string): Promise<{ finalUrl: string; text: string } | undefined> {
    if (this.fetchesLeft <= 0 || !this.fetchable(url)) return undefined;
    this.fetchesLeft--;
    return fetchText(this.options.client, url, this.deadline);
  }
}

/** A fix known from the check alone: a redirect's end, or the plain reason of a failure. */
function factOf(check: LinkCheck): Suggestion | undefined {
  if (check.state === 'ok' && check.redirects.length > 0 && check.finalUrl !== '') {
    const hops = check.redirects.length;
    return suggestion(
      'redirect',
      hops > 1 ? 'redirect-chain' : 'redirect',
      check.finalUrl,
      null,
      hops,
    );
  }
  if (check.state !== 'broken') return undefined;
  const basis = explained[check.reason];
  return basis && suggestion('explain', basis, null, null);
}

function isMissingPage(target: CheckedUrl): boolean {
  const check = target.check;
  return (
    target.internal &&
    check?.state === 'broken' &&
    (check.statusCode === 404 || check.statusCode === 410)
  );
}

function suggestion(
  kind: Suggestion['kind'],
  basis: SuggestionBasis,
  url: string | null,
  confidence: number | null,
  hops: number | null = null,
): Suggestion {
  return { kind, basis, url, confidence, hops };
}

function samePage(a: string, b: string): boolean {
  if (a.trim() === b.trim()) return true;
  const title = (html: string) => /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.trim() ?? '';
  return title(a) !== '' && title(a) === title(b);
}

/** Runs `tasks`, `limit` at a time, starting none once `signal` is aborted. */
async function runLimited(
  tasks: Array<() => Promise<void>>,
  limit: number,
  signal: AbortSignal,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length && !signal.aborted) await tasks[next++]?.();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}
