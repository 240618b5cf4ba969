// Types of generator.mjs for the TypeScript test (the bench itself is plain JavaScript).

export interface SiteOptions {
  pages?: number;
  seed?: number;
  brokenFraction?: number;
  redirectFraction?: number;
  bigFiles?: number;
  bigFileBytes?: number;
  imagesPerPage?: number | [number, number];
  linksPerPage?: number;
  fragmentFraction?: number;
  brokenFragmentShare?: number;
  bigLinkChance?: number;
  slowUrls?: number;
  slowMs?: number;
  trickleUrls?: number;
  trickleMs?: number;
  dropUrls?: number;
  deadHosts?: number;
  deadHostUrls?: number;
  tailLinks?: number;
}

export interface Route {
  status: number;
  location?: string;
  absolute?: boolean;
  /** Tail: answers after this many ms. */
  delayMs?: number;
  /** Tail: sends the body in ten pieces over this many ms. */
  trickleMs?: number;
  /** Tail: the connection is closed in the middle of the headers. */
  drop?: boolean;
}

/** A tail URL: a path on the site, or an absolute URL on a host that does not resolve. */
export interface TailItem {
  kind: 'slow' | 'trickle' | 'drop' | 'dead-host';
  url: string;
  element: 'a' | 'img';
  route?: Route;
}

export interface Truth {
  generatorVersion: number;
  options: Required<SiteOptions> & { missingImages: number[] };
  start: string;
  /** Every URL (path) a crawler reaches from `start`, in breadth-first order. */
  urls: string[];
  /**
   * Broken URLs with their final status; `redirected` when a redirect ends at a missing page;
   * status 0 with a `reason` when there is no HTTP answer (dropped connection, dead host).
   */
  broken: Record<string, { status: number; redirected?: boolean; reason?: string }>;
  /** What the server answers besides files: redirects and 410s. */
  routes: Record<string, Route>;
  brokenFragments: string[];
  stats: Record<string, number>;
}

export const GENERATOR_VERSION: number;
export const DEFAULT_OPTIONS: Readonly<Required<SiteOptions>>;
export function mulberry32(state: number): () => number;
export function pagePath(index: number): string;
export function tailItems(options: Required<SiteOptions>): TailItem[];
export function generateSite(dir: string, options?: SiteOptions): Truth;
export function readTruth(dir: string): Truth;
export function ensureSite(
  baseDir: string,
  options?: SiteOptions,
): { dir: string; truth: Truth; generated: boolean };
