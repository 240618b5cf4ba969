import { ScanDepth } from '@linkaudit/core';
import { foldCase } from './fold-case.js';

const defaultPorts: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** The host of a URL without a leading "www.", and its port unless it is the scheme's default. */
export function siteIdentity(url: URL): string {
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const port = url.port && url.port !== defaultPorts[url.protocol] ? url.port : '';
  return port ? `${host}:${port}` : host;
}

/**
 * Which URLs belong to the scanned site and which of those are crawled. `www.` and the bare
 * host, http and https are one site (decisions.md); the folder of a folder scan is that of the
 * start page's final address.
 */
export class SiteScope {
  private site: string;
  private folder: string;

  constructor(
    startUrl: URL,
    private readonly depth: ScanDepth,
    private readonly caseSensitive: boolean,
  ) {
    this.site = siteIdentity(startUrl);
    this.folder = folderOf(startUrl.pathname);
  }

  /** After redirects, the start page's final address decides the site and the folder. */
  useStartPage(finalUrl: URL): void {
    this.site = siteIdentity(finalUrl);
    this.folder = folderOf(finalUrl.pathname);
  }

  isInternal(url: URL): boolean {
    return siteIdentity(url) === this.site;
  }

  /** In scope to be crawled (fetched and parsed), depth limit aside. */
  isCrawlable(url: URL): boolean {
    return this.isCrawlablePath(this.isInternal(url), url.pathname);
  }

  /** The same, for a link whose site membership is already known. */
  isCrawlablePath(internal: boolean, pathname: string): boolean {
    if (this.depth === ScanDepth.SinglePage || !internal) return false;
    if (this.depth === ScanDepth.Domain) return true;
    const path = this.caseSensitive ? pathname : foldCase(pathname);
    const folder = this.caseSensitive ? this.folder : foldCase(this.folder);
    return path.startsWith(folder);
  }
}

function folderOf(pathname: string): string {
  return pathname.slice(0, pathname.lastIndexOf('/') + 1) || '/';
}
