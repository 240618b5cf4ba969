// The rules' front door (@linkaudit/engine/rules): the scan engine hands each crawled page to a
// runner and asks for the site-level findings once the crawl is over. Nothing here fetches
// anything, and nothing is defined here: every name lives in the module of its layer.
export type {
  PageFacts,
  PageFinding,
  RulePageInput,
  RuleRunner,
  RuleRunnerOptions,
  RuleViolation,
} from './rule-types.js';
export { ruleCatalogue } from './catalogue.js';
export { createRuleRunner } from './runner.js';
