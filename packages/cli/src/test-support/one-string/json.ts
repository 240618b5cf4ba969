import { ruleCategoryLabel, suggestionWhy, type Suggestion } from '@linkaudit/core';
import type { CertificateEvent, PageSizeEvent } from '@linkaudit/engine';
import {
  sizeBuckets,
  statusName,
  type LinkSource,
  type RuleFinding,
  type RuleReport,
  type ScanReport,
} from '../../report.js';
import type { RuleInfo } from '../../rules.js';
import type { OneStringFormatter as Formatter } from './formatter.js';

/** The whole report as one JSON.stringify of one document. */
export const formatJson: Formatter = (report) => {
  const rules = new Map(report.rules?.results.map(({ rule }) => [rule.id, rule]));
  const violations = report.rules?.violations.map((violation) => violationJson(violation, rules));
  return `${JSON.stringify(reportDocument(report, violations), null, 2)}\n`;
};

/** The report as a document for JSON.stringify, its violations given as `violations`. */
function reportDocument(report: ScanReport, violations: unknown) {
  const { done } = report;
  const { summary } = done;
  const document = {
    tool: 'linkaudit',
    startUrl: summary.startUrl,
    status: statusName(done.status),
    statusCode: done.status,
    stoppedBy: done.stoppedBy,
    error: done.error,
    summary: {
      pages: summary.pages,
      uniqueLinks: summary.uniqueLinks,
      totalLinks: summary.totalLinks,
      brokenLinks: summary.brokenLinks,
      uniqueBrokenLinks: summary.uniqueBrokenLinks,
      uniqueUnverifiedLinks: summary.uniqueUnverifiedLinks,
      durationMs: summary.durationMs,
      reasons: summary.reasons,
      brokenAnchors: summary.brokenAnchors,
      duplicateAnchors: summary.duplicateAnchors,
      fattestPages: summary.fattestPages,
      certificateProblems: summary.certificateProblems,
    },
    broken: report.broken.map(({ url, check, referenceCount, sources, suggestion }) => ({
      url,
      reason: check.reason,
      statusCode: check.statusCode ?? null,
      message: check.message,
      referenceCount,
      redirects: check.redirects.map(({ url: hop, statusCode }) => ({ url: hop, statusCode })),
      sources: sources.map(sourceJson),
      ...suggestionJson(suggestion),
    })),
    unverified: report.unverified.map(({ url, check, referenceCount, sources, suggestion }) => ({
      url,
      cause: check.cause,
      statusCode: check.statusCode ?? null,
      message: check.message,
      referenceCount,
      sources: sources.map(sourceJson),
      ...suggestionJson(suggestion),
    })),
    warnings: report.warnings.map(({ url, check, referenceCount, sources }) => ({
      url,
      warning: check.warning,
      statusCode: check.statusCode,
      finalUrl: check.finalUrl,
      referenceCount,
      sources: sources.map(sourceJson),
    })),
    notChecked: report.notChecked.map(({ url, check, referenceCount, sources }) => ({
      url,
      cause: check.cause,
      message: check.message,
      referenceCount,
      sources: sources.map(sourceJson),
    })),
    ...issueFourJson(report),
    ...(report.rules ? { rules: rulesJson(report.rules, violations) } : {}),
    ...(report.baseline ? { baseline: report.baseline } : {}),
    // Working links with a better address; no key when there are none (issue 27).
    ...(report.linkFixes.length > 0
      ? {
          linkFixes: report.linkFixes.map(({ url, suggestion }) => ({
            url,
            ...suggestionJson(suggestion),
          })),
        }
      : {}),
  };
  return document;
}

/** Anchors, certificates, sizes and file types always; page rank and inclusion when asked for. */
function issueFourJson(report: ScanReport) {
  const { summary } = report.done;
  return {
    anchors: {
      broken: report.brokenAnchors.map(
        ({ url, page, fragment, referenceCount, sources, suggestion }) => ({
          url,
          page,
          fragment,
          referenceCount,
          sources: sources.map(sourceJson),
          ...suggestionJson(suggestion),
        }),
      ),
      duplicates: report.duplicateAnchors.map(({ page, name, first, duplicate }) => ({
        page,
        name,
        first: { line: first.line, column: first.column },
        duplicate: { line: duplicate.line, column: duplicate.column },
      })),
      unverifiable: report.unverifiableAnchors,
    },
    certificates: report.certificates.map(certificateJson),
    pageSizes: {
      fattest: report.fattestPages.map(pageSizeJson),
      buckets: sizeBuckets(summary),
      heaviest: report.heaviestPages.map(pageSizeJson),
    },
    fileTypes: summary.fileTypes.map(({ contentType, count, totalSize }) => ({
      contentType,
      count,
      totalSize,
    })),
    ...(report.pageRanks
      ? { pageRank: report.pageRanks.map(({ page, rank, score }) => ({ page, rank, score })) }
      : {}),
    ...(report.pageInclusion
      ? {
          pageInclusion: {
            summary: summary.sitemap
              ? {
                  sitemaps: summary.sitemap.sitemaps,
                  urls: summary.sitemap.urls,
                  orphans: summary.sitemap.orphans,
                  broken: summary.sitemap.broken,
                  redirected: summary.sitemap.redirected,
                  notIndexable: summary.sitemap.notIndexable,
                  missingFromSitemap: summary.sitemap.missingFromSitemap,
                }
              : null,
            pages: report.pageInclusion.map((entry) => ({
              page: entry.page,
              statusCode: entry.statusCode ?? null,
              inboundLinks: entry.inboundLinks,
              inboundSources: entry.inboundSources,
              indexable: entry.indexable,
              notIndexableBecause: entry.notIndexableBecause,
              canonical: entry.canonical ?? null,
              inSitemap: entry.inSitemap,
              orphan: entry.orphan,
            })),
          },
        }
      : {}),
  };
}

/**
 * With --rules: the engine's tally (null when it has none) with each selected rule's violation
 * count, and every violation sorted by page, line, column and rule.
 */
function rulesJson({ summary, results }: RuleReport, violations: unknown) {
  return {
    summary: summary
      ? {
          checkedPages: summary.checkedPages,
          violations: summary.violations,
          categories: summary.categories.map(({ categoryID, passed, failed }) => ({
            categoryID,
            category: ruleCategoryLabel(categoryID),
            passed,
            failed,
          })),
        }
      : null,
    selected: results.map(({ rule, violations: found }) => ({
      ruleId: rule.id,
      slug: rule.slug,
      ruleName: rule.name,
      categoryID: rule.categoryID,
      violations: found.length,
      helpUri: rule.helpUrl,
    })),
    violations,
  };
}

function violationJson(
  { ruleId, url, line, column, snippet, message }: RuleFinding,
  rules: ReadonlyMap<number, RuleInfo>,
) {
  return {
    ruleId,
    ruleName: rules.get(ruleId)?.name ?? `Rule ${ruleId}`,
    categoryID: rules.get(ruleId)?.categoryID ?? 0,
    url,
    line,
    column,
    snippet,
    message: message ?? null,
  };
}

/** Every field always present (null when unknown), so a script can read them without guessing. */
function certificateJson(certificate: CertificateEvent) {
  return {
    host: certificate.host,
    valid: certificate.valid,
    problem: certificate.problem ?? null,
    errorCode: certificate.errorCode ?? null,
    message: certificate.message,
    subject: certificate.subject ?? null,
    issuer: certificate.issuer ?? null,
    validFrom: certificate.validFrom ?? null,
    validTo: certificate.validTo ?? null,
    daysLeft: certificate.daysLeft ?? null,
    expiresSoon: certificate.expiresSoon,
  };
}

function pageSizeJson({ page, htmlBytes, totalBytes, unknownSizes, contents }: PageSizeEvent) {
  return {
    page,
    totalBytes,
    htmlBytes,
    unknownSizes,
    contents: contents.map(({ contentType, totalSize, count }) => ({
      contentType,
      totalSize,
      count,
    })),
  };
}

/** Field by field, so the output never grows with whatever else a source carries. */
function sourceJson({ url, element, attribute, line, column }: LinkSource): LinkSource {
  return { url, element, attribute, line, column };
}

function suggestionJson(suggestion: Suggestion | undefined) {
  return suggestion ? { suggestion: { ...suggestion, why: suggestionWhy(suggestion) } } : {};
}
