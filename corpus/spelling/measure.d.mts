import type { createRuleRunner } from '@linkaudit/engine/rules';

export declare const siteRoot: string;
export declare const misspellingRules: number[];
export interface SpellingMeasure {
  pages: number;
  labelled: number;
  found: number;
  right: number;
  wrong: string[];
  missed: string[];
  precision: number;
  recall: number;
}
export declare function findMisspellings(create: typeof createRuleRunner): Set<string>;
export declare function readTruth(): { misspelt: Set<string>; notMisspelt: Set<string> };
export declare function measureSpelling(create: typeof createRuleRunner): SpellingMeasure;
