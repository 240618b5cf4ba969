import type { AnchorIndex } from '../checks/anchors.js';
import type { LinkCheck } from '../events.js';
import { isHtmlType } from '../fetch/checker.js';
import type { Target } from './targets.js';

/**
 * Checks of external URLs kept between runs (issue 38, the CLI's --cache): a URL found fresh
 * here is answered without a request. The keeper decides what is fresh; the engine decides what
 * is worth keeping (resultToKeep) and when a kept result can stand in for a fetch (ResultCacheUse).
 */
export interface ResultCache {
  /** A fresh kept result of this URL, or undefined to fetch it. */
  get(url: string): CachedResult | undefined;
  /** A result just fetched, worth keeping. */
  set(url: string, result: CachedResult): void;
}

export interface CachedResult {
  check: LinkCheck;
  /** The page's anchors (AnchorIndex hashes) when it was read for them: fragments need them. */
  anchors?: number[];
}

/**
 * A result is kept when it says something lasting about the URL: it works, or it answered a
 * definite 4xx (not 429), or the host keeps robots out (bot protection, a sign-in). Network
 * errors, time-outs, 5xx, rate limits and slow hosts are passing trouble: the next run asks again.
 */
function worthKeeping(check: LinkCheck): boolean {
  if (check.state === 'ok') return true;
  if (check.state === 'unverified')
    return check.cause === 'bot-protection' || check.cause === 'needs-sign-in';
  if (check.state !== 'broken' || check.statusCode === undefined) return false;
  return check.statusCode >= 400 && check.statusCode < 500 && check.statusCode !== 429;
}

/** The ledger's use of a cache: external targets only, never pages it crawls or stylesheets. */
export class ResultCacheUse {
  /** Targets answered from the cache (their results are not written back). */
  private readonly answered = new Set<number>();

  constructor(
    private readonly cache: ResultCache,
    private readonly anchors: AnchorIndex,
    private readonly checkAnchors: boolean,
  ) {}

  /** The kept check standing for a fetch of this target, with its anchors recorded. */
  answer(target: Target): LinkCheck | undefined {
    if (target.internal || target.crawl || target.stylesheet) return undefined;
    const kept = this.cache.get(target.url);
    if (!kept) return undefined;
    const page = kept.check.state === 'ok' && isHtmlType(kept.check.contentType ?? '');
    // A page whose fragments may be checked needs its anchors: kept, or fetched again.
    if (page && (target.readAnchors || this.checkAnchors)) {
      if (!kept.anchors) return undefined;
      this.anchors.recordHashes(target.id, kept.anchors);
    }
    this.answered.add(target.id);
    return kept.check;
  }

  /** A settled external target's result, kept when it was fetched and is worth keeping. */
  keep(target: Target, check: LinkCheck): void {
    if (target.internal || this.answered.has(target.id) || !worthKeeping(check)) return;
    const anchors = this.anchors.hashesOf(target.id);
    this.cache.set(target.url, { check, ...(anchors ? { anchors } : {}) });
  }
}

/**
 * The cache, and the URLs it answered: the suggestion pass leaves those alone (a second run
 * sends only the requests for what is new or stale, issue 38).
 */
export function answeringCache(cache: ResultCache): { cache: ResultCache; answered: Set<string> } {
  const answered = new Set<string>();
  return {
    answered,
    cache: {
      get(url) {
        const result = cache.get(url);
        if (result) answered.add(url);
        return result;
      },
      set: (url, result) => cache.set(url, result),
    },
  };
}
