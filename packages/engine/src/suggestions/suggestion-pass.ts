import { FailureReason, type Suggestion, type SuggestionBasis } from '@linkaudit/core';
import type { LinkCheck, ScanEvent, SuggestionEvent } from '../events.js';
import { HtmlLinkExtractor } from '../extract/html-links.js';
import type { HttpClient } from '../fetch/http-client.js';
import { closestAnchor } from './closest-anchor.js';
import { closestPage, type KnownPage } from './closest-page.js';
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
   * The whole pass's time (fetches and all): past it, fetches under way are given up and the
   * fixes not yet worked out are left out, so a scan's end is never held long by slow hosts.
   */
  deadlineMs: number;
}

const concurrency = 4;
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
  private readonly pages: KnownPage[] = [];
  private readonly firstLinks = new Map<string, { source: string; line: number; column: number }>();
  private readonly missingFragments = new Map<string, Set<string>>();
  private fetchesLeft: number;

  constructor(private readonly options: SuggestionPassOptions) {
    this.fetchesLeft = options.maxFetches;
  }

  /** Takes note of what the suggestions need from one event of the scan. */
  observe(event: ScanEvent): void {
    if (event.type === 'page' && event.statusCode >= 200 && event.statusCode < 300) {
      this.pages.push({ url: event.finalUrl, ...(event.title ? { title: event.title } : {}) });
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
   * Facts first (they need nothing), then the fixes of broken links (anchors, missing pages),
   * then https twins of working links, within the pass's deadline.
   */
  async finish(
    targets: readonly CheckedUrl[],
    fetch: boolean,
    emit: (event: SuggestionEvent) => void,
  ): Promise<void> {
    const pages: Array<() => Promise<void>> = [];
    const twins: Array<() => Promise<void>> = [];
    for (const target of targets) {
      if (target.alias || !target.check) continue;
      const fact = factOf(target.check);
      if (fact) emit({ type: 'suggestion', url: target.url, suggestion: fact });
      else if (isMissingPage(target)) pages.push(() => this.suggestPage(target.url, fetch, emit));
      else if (fetch && this.isHttpsCandidate(target))
        twins.push(() => this.suggestHttps(target.url, emit));
    }
    const anchors = fetch
      ? [...this.missingFragments].map(
          ([url, fragments]) =>
            () =>
              this.suggestAnchors(url, fragments, emit),
        )
      : [];
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.options.deadlineMs);
    this.deadline = deadline.signal;
    try {
      await runLimited([...anchors, ...pages, ...twins], concurrency, deadline.signal);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Aborted once the pass's time is up: fetches under way then answer nothing at once. */
  private deadline: AbortSignal | undefined;

  private async suggestPage(
    url: string,
    fetch: boolean,
    emit: (event: SuggestionEvent) => void,
  ): Promise<void> {
    const link = this.firstLinks.get(url);
    const source = link && fetch ? await this.fetch(link.source) : undefined;
    const text = link && source ? linkTextAt(source.text, link.line, link.column) : undefined;
    const guess = closestPage(url, text, this.pages);
    if (guess)
      emit({
        type: 'suggestion',
        url,
        suggestion: suggestion('closest-page', guess.basis, guess.url, guess.confidence),
      });
  }

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

  private async fetch(url: string): Promise<{ finalUrl: string; text: string } | undefined> {
    if (this.fetchesLeft <= 0) return undefined;
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
