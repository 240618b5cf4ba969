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
}

export interface Route {
  status: number;
  location?: string;
  absolute?: boolean;
}

export interface Truth {
  generatorVersion: number;
  options: Required<SiteOptions> & { missingImages: number[] };
  start: string;
  /** Every URL (path) a crawler reaches from `start`, in breadth-first order. */
  urls: string[];
  /** Broken URLs with their final status; `redirected` when a redirect ends at a missing page. */
  broken: Record<string, { status: number; redirected?: boolean }>;
  /** What the server answers besides files: redirects and 410s. */
  routes: Record<string, Route>;
  brokenFragments: string[];
  stats: Record<string, number>;
}

export const GENERATOR_VERSION: number;
export const DEFAULT_OPTIONS: Readonly<Required<SiteOptions>>;
export function mulberry32(state: number): () => number;
export function pagePath(index: number): string;
export function generateSite(dir: string, options?: SiteOptions): Truth;
export function readTruth(dir: string): Truth;
export function ensureSite(
  baseDir: string,
  options?: SiteOptions,
): { dir: string; truth: Truth; generated: boolean };
