import { asWarnedProblem } from './open-web.js';
import { suggestionLine, type Suggestion } from '@linkaudit/core';
import {
  anchorName,
  certificateProblems,
  hostUrl,
  type ProblemUrl,
  type ScanReport,
} from '../report.js';
import { oneString, type Formatter } from './format.js';

const header = [
  'state',
  'reason',
  'status_code',
  'url',
  'source',
  'element',
  'attribute',
  'line',
  'column',
  'message',
  'reference_count',
  // Issue 27, appended so the columns before it stay where they were.
  'suggested_fix',
];

type Cell = string | number | undefined;

/**
 * One row per broken or unverified link occurrence and per (kept) occurrence of a link not
 * checked on purpose (its cause in the reason column), then one per link to a missing #fragment, per
 * duplicate anchor, per host whose certificate is invalid or expires soon, per page's rank and
 * inclusion (when asked for) and per quality-rule violation (by page, line, column and rule; RFC 4180, CRLF line ends). The state column says
 * what a row is; the columns a row has no value for stay empty. Written a row at a time.
 */
export const csvReport: Formatter = (report) => csvLines(report);

export const formatCsv = oneString(csvReport);

function* csvLines(report: ScanReport): Generator<string> {
  for (const row of csvRows(report)) {
    // Rows without a suggested fix leave its column empty.
    const cells = row.length < header.length ? [...row, undefined] : row;
    yield `${cells.map(csvCell).join(',')}\r\n`;
  }
}

function* csvRows(report: ScanReport): Generator<Cell[]> {
  yield header;
  for (const item of report.broken) yield* occurrenceRows('broken', item.check.reason, item);
  for (const item of report.unverified) yield* occurrenceRows('unverified', item.check.cause, item);
  for (const item of report.warnings)
    yield* occurrenceRows(item.check.warning, '', asWarnedProblem(item));
  // Not checked on purpose: one row per source kept (report.ts keeps the first few of each URL).
  for (const item of report.notChecked) {
    yield* occurrenceRows('not-checked', item.check.cause, item);
  }
  for (const anchor of report.brokenAnchors) {
    const message = `No element with id or name "${anchorName(anchor.fragment)}" on ${anchor.page}`;
    for (const source of anchor.sources) {
      yield [
        'broken-anchor',
        '',
        undefined,
        anchor.url,
        source.url,
        source.element,
        source.attribute,
        source.line,
        source.column,
        message,
        anchor.referenceCount,
        fixText(anchor.suggestion),
      ];
    }
  }
  for (const { page, name, first, duplicate } of report.duplicateAnchors) {
    const message = `The anchor "${name}" is also defined at ${first.line}:${first.column}`;
    yield [
      'duplicate-anchor',
      '',
      undefined,
      page,
      page,
      '',
      '',
      duplicate.line,
      duplicate.column,
      message,
      undefined,
    ];
  }
  const { invalid, expiring } = certificateProblems(report);
  for (const certificate of [...invalid, ...expiring]) {
    const reason = certificate.valid ? 'expires-soon' : (certificate.problem ?? 'other');
    const until = certificate.validTo ? ` (valid until ${certificate.validTo.slice(0, 10)})` : '';
    const message = certificate.valid ? certificate.message : `${certificate.message}${until}`;
    const url = hostUrl(certificate.host);
    yield [
      'certificate',
      reason,
      undefined,
      url,
      '',
      '',
      '',
      undefined,
      undefined,
      message,
      undefined,
    ];
  }
  yield* siteAnalysisRows(report);
  const rules = new Map(report.rules?.results.map(({ rule }) => [rule.id, rule.name]));
  for (const { ruleId, url, line, column, snippet, message } of report.rules?.violations ?? []) {
    yield [
      'rule',
      rules.get(ruleId) ?? `Rule ${ruleId}`,
      undefined,
      url,
      url,
      '',
      '',
      line,
      column,
      message ? `${message}: ${snippet}` : snippet,
      undefined,
    ];
  }
}

/**
 * With --page-rank, a row per page (best first) with its score and rank; with --page-inclusion, a
 * row per page and sitemap entry: orphan, in-sitemap or not-in-sitemap in the reason column, its
 * incoming links in the reference count, the linking pages and indexability in the message.
 */
function* siteAnalysisRows(report: ScanReport): Generator<Cell[]> {
  for (const { page, rank, score } of report.pageRanks ?? []) {
    const message = `Page rank ${rank.toFixed(6)}, score ${score} of 10`;
    yield ['page-rank', '', undefined, page, '', '', '', undefined, undefined, message, undefined];
  }
  for (const entry of report.pageInclusion ?? []) {
    const reason = entry.orphan ? 'orphan' : entry.inSitemap ? 'in-sitemap' : 'not-in-sitemap';
    const linked = entry.inboundSources.length > 0 ? `: ${entry.inboundSources.join(' ')}` : '';
    const indexing = entry.indexable
      ? 'indexable'
      : `not indexable (${entry.notIndexableBecause.join(', ')})`;
    yield [
      'page-inclusion',
      reason,
      entry.statusCode,
      entry.page,
      '',
      '',
      '',
      undefined,
      undefined,
      `Linked from ${entry.inboundSources.length} page(s)${linked}; ${indexing}`,
      entry.inboundLinks,
    ];
  }
}

function* occurrenceRows(
  state: string,
  reason: string,
  item: ProblemUrl<{ statusCode?: number; message: string }>,
): Generator<Cell[]> {
  for (const source of item.sources) {
    yield [
      state,
      reason,
      item.check.statusCode,
      item.url,
      source.url,
      source.element,
      source.attribute,
      source.line,
      source.column,
      item.check.message,
      item.referenceCount,
      fixText(item.suggestion),
    ];
  }
}

function fixText(suggestion: Suggestion | undefined): string | undefined {
  return suggestion && suggestionLine(suggestion);
}

/**
 * Quotes where RFC 4180 needs it, and defuses formula injection: a spreadsheet runs a cell that
 * starts with = + - @ (or a tab or carriage return) as a formula, so such text gets a leading '.
 */
export function csvCell(value: Cell): string {
  if (value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
