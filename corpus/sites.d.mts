// Types of sites.mjs for the TypeScript tests.
import type { SiteFiles } from './static-site.mjs';

export type Fault =
  { delete: string } | { removeId: string; id: string } | { append: string; html: string };

export interface CorpusSite {
  name: string;
  generator: string;
  package: string;
  installed: string;
  start: string;
  faults: Fault[];
}

export declare const sites: CorpusSite[];
export declare function siteNamed(name: string): CorpusSite;
export declare function sliceRoot(site: CorpusSite): string;
export declare function filesWithFaults(site: CorpusSite, root?: string): SiteFiles;
