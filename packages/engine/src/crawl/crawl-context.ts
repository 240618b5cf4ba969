import { scanFailureMessages } from '@linkaudit/core';
import type { CrawlSettings } from '../crawl-settings.js';
import type { HttpClient } from '../fetch/http-client.js';
import { compileExclusions, exclusionProblems, type ExclusionMatcher } from './exclusions.js';
import { foldCase } from './fold-case.js';
import { allowAllRobots, loadRobots, type RobotsRules } from './robots.js';
import { SiteScope } from './site-scope.js';

/**
 * Everything a crawl decides links by, known before the crawl's parts are made: the settings,
 * the start address, the scope (narrowed once by the start page's final address), the compiled
 * exclusions and the site's robots.txt.
 */
export interface CrawlContext {
  settings: CrawlSettings;
  startUrl: URL;
  scope: SiteScope;
  exclusions: ExclusionMatcher;
  robots: RobotsRules;
  /** A folder on disk (EngineOptions.localFolder): "x/index.html" and "x/" are one address. */
  fromFolder: boolean;
}

/**
 * The asynchronous preparation of a crawl: the start address and exclusions checked (a message
 * when they cannot be used), then robots.txt read when the settings need it.
 */
export async function prepareCrawl(
  settings: CrawlSettings,
  client: HttpClient,
  onStartChecked: () => void,
  fromFolder = false,
): Promise<CrawlContext | string> {
  const startUrl = checkedStart(settings);
  if (typeof startUrl === 'string') return startUrl;
  onStartChecked();
  const robots =
    settings.respectRobotsTxt || settings.checkPageInclusion
      ? await loadRobots(client, startUrl.origin)
      : allowAllRobots;
  return {
    settings,
    startUrl,
    scope: new SiteScope(startUrl, settings.scanDepth, settings.caseSensitive),
    exclusions: compileExclusions(settings.excludeLinks, settings.caseSensitive),
    robots,
    fromFolder,
  };
}

/** The key two addresses share when the scan treats them as one (case folded unless case-sensitive). */
export function addressKeyOf(
  settings: Pick<CrawlSettings, 'caseSensitive'>,
  fromFolder = false,
): (url: string) => string {
  const fold = settings.caseSensitive ? (url: string) => url : foldCase;
  // A folder's page is one file whichever way a link names it, so it is read and reported once.
  return fromFolder ? (url) => fold(url.replace(indexFile, '$1')) : fold;
}

/** "index.html" as the last segment of a path (before any query). */
const indexFile = /(^|\/)index\.html(?=\?|$)/;

function checkedStart(settings: CrawlSettings): URL | string {
  const problems = exclusionProblems(settings.excludeLinks);
  if (problems.length > 0) return problems.join('; ');
  try {
    const url = new URL(settings.url);
    if (url.protocol === 'http:' || url.protocol === 'https:') {
      url.hash = '';
      return url;
    }
  } catch {
    // reported below
  }
  return scanFailureMessages.invalidStart(settings.url);
}
