import { statusName, type LinkSource } from '../report.js';
import type { Formatter } from './format.js';

/**
 * The machine-readable report. Its shape is a contract (the benchmark and CI scripts parse it):
 * add fields, never rename or remove them.
 */
export const formatJson: Formatter = (report) => {
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
    },
    broken: report.broken.map(({ url, check, referenceCount, sources }) => ({
      url,
      reason: check.reason,
      statusCode: check.statusCode ?? null,
      message: check.message,
      referenceCount,
      redirects: check.redirects.map(({ url: hop, statusCode }) => ({ url: hop, statusCode })),
      sources: sources.map(sourceJson),
    })),
    unverified: report.unverified.map(({ url, check, referenceCount, sources }) => ({
      url,
      statusCode: check.statusCode,
      message: check.message,
      referenceCount,
      sources: sources.map(sourceJson),
    })),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
};

/** Field by field, so the output never grows with whatever else a source carries. */
function sourceJson({ url, element, attribute, line, column }: LinkSource): LinkSource {
  return { url, element, attribute, line, column };
}
