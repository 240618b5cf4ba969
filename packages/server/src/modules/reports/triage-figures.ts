import {
  brokenAnchorReason,
  triageKeyOf,
  type LinkRow,
  type ReportSummary,
  type RowTriage,
  type RuleRow,
} from '@linkaudit/core';
import type { IgnoredFigures } from './reports.repository.js';

/** The mark key of a report sample row (a broken anchor's row carries the link with its #). */
export function sampleLinkKey(row: LinkRow): string {
  return triageKeyOf({
    kind: row.failureReason === brokenAnchorReason ? 'anchor' : 'link',
    target: row.targetUri,
  });
}

export function sampleRuleKey(row: RuleRow): string {
  return triageKeyOf({ kind: 'rule', target: row.uri, ruleId: row.ruleId });
}

/**
 * A report summary less what the owner ignored (issue 27 triage): the figures drop the ignored
 * links, anchors and findings, the samples drop ignored rows, and `ignored` says how much went.
 * `marks` are the samples' marks by key.
 */
export function withoutIgnored(
  report: ReportSummary,
  ignored: IgnoredFigures,
  marks: ReadonlyMap<string, RowTriage>,
): ReportSummary {
  const links = ignored.links.reduce((sum, row) => sum + row.links, 0);
  const urls = ignored.links.reduce((sum, row) => sum + row.urls, 0);
  const findings = ignored.findings.reduce((sum, row) => sum + row.count, 0);
  const lessByReason = new Map([
    ...ignored.links.map((row): [string, number] => [row.reason, row.links]),
    [brokenAnchorReason, ignored.brokenAnchors],
  ]);
  const lessByCategory = new Map(ignored.findings.map((row) => [row.categoryID, row.failedChecks]));
  const isIgnored = (key: string) => marks.get(key)?.mark === 'ignored';
  return {
    ...report,
    badLinks: Math.max(0, report.badLinks - links),
    uniqueBadLinks: Math.max(0, report.uniqueBadLinks - urls),
    brokenAnchors: Math.max(0, report.brokenAnchors - ignored.brokenAnchors),
    reasons: report.reasons
      .map((row) => ({
        ...row,
        numberOfReferences: row.numberOfReferences - (lessByReason.get(row.failureReason) ?? 0),
      }))
      .filter((row) => row.numberOfReferences > 0),
    ruleCategories: report.ruleCategories.map((category) => {
      const less = Math.min(category.failed, lessByCategory.get(category.categoryID) ?? 0);
      return { ...category, failed: category.failed - less, passed: category.passed + less };
    }),
    brokenSamples: report.brokenSamples
      .map((sample) => ({
        ...sample,
        links: sample.links.filter((row) => !isIgnored(sampleLinkKey(row))),
      }))
      .filter((sample) => sample.links.length > 0),
    ruleSamples: report.ruleSamples.filter((row) => !isIgnored(sampleRuleKey(row))),
    ignored: {
      badLinks: links,
      uniqueBadLinks: urls,
      brokenAnchors: ignored.brokenAnchors,
      findings,
    },
  };
}
