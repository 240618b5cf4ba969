import { asWarnedProblem } from '../../formatters/open-web.js';
import { suggestionLine } from '@linkaudit/core';
import {
  anchorName,
  certificateProblems,
  hostUrl,
  type LinkSource,
  type ProblemUrl,
  type ScanReport,
} from '../../report.js';
import type { OneStringFormatter as Formatter } from './formatter.js';

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
  'suggested_fix',
];

type Cell = string | number | undefined;

/**
 * One row per broken or unverified link occurrence, then one per link to a missing #fragment, per
 * duplicate anchor, per host whose certificate is invalid or expires soon and per quality-rule
 * violation (by page, line, column and rule; RFC 4180, CRLF line ends). The state column says
 * what a row is; the columns a row has no value for stay empty.
 */
export const formatCsv: Formatter = (report: ScanReport) => {
  const rows: Cell[][] = [header];
  for (const item of report.broken) rows.push(...occurrenceRows('broken', item.check.reason, item));
  for (const item of report.unverified)
    rows.push(...occurrenceRows('unverified', item.check.cause, item));
  for (const item of report.warnings)
    rows.push(...occurrenceRows(item.check.warning, '', asWarnedProblem(item)));
  for (const anchor of report.brokenAnchors) {
    const message = `No element with id or name "${anchorName(anchor.fragment)}" on ${anchor.page}`;
    for (const source of anchor.sources) {
      rows.push([
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
        anchor.suggestion && suggestionLine(anchor.suggestion),
      ]);
    }
  }
  for (const { page, name, first, duplicate } of report.duplicateAnchors) {
    const message = `The anchor "${name}" is also defined at ${first.line}:${first.column}`;
    rows.push([
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
    ]);
  }
  const { invalid, expiring } = certificateProblems(report);
  for (const certificate of [...invalid, ...expiring]) {
    const reason = certificate.valid ? 'expires-soon' : (certificate.problem ?? 'other');
    const until = certificate.validTo ? ` (valid until ${certificate.validTo.slice(0, 10)})` : '';
    const message = certificate.valid ? certificate.message : `${certificate.message}${until}`;
    const url = hostUrl(certificate.host);
    rows.push([
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
    ]);
  }
  for (const { page, rank, score } of report.pageRanks ?? []) {
    const message = `Page rank ${rank.toFixed(6)}, score ${score} of 10`;
    rows.push([
      'page-rank',
      '',
      undefined,
      page,
      '',
      '',
      '',
      undefined,
      undefined,
      message,
      undefined,
    ]);
  }
  for (const entry of report.pageInclusion ?? []) {
    const linked = entry.inboundSources.length > 0 ? `: ${entry.inboundSources.join(' ')}` : '';
    const indexing = entry.indexable
      ? 'indexable'
      : `not indexable (${entry.notIndexableBecause.join(', ')})`;
    rows.push([
      'page-inclusion',
      entry.orphan ? 'orphan' : entry.inSitemap ? 'in-sitemap' : 'not-in-sitemap',
      entry.statusCode,
      entry.page,
      '',
      '',
      '',
      undefined,
      undefined,
      `Linked from ${entry.inboundSources.length} page(s)${linked}; ${indexing}`,
      entry.inboundLinks,
    ]);
  }
  const rules = new Map(report.rules?.results.map(({ rule }) => [rule.id, rule.name]));
  for (const { ruleId, url, line, column, snippet, message } of report.rules?.violations ?? []) {
    rows.push([
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
    ]);
  }
  return rows
    .map((row) => (row.length < header.length ? [...row, undefined] : row))
    .map((row) => `${row.map(csvCell).join(',')}\r\n`)
    .join('');
};

function occurrenceRows(
  state: string,
  reason: string,
  item: ProblemUrl<{ statusCode?: number; message: string }>,
): Cell[][] {
  return item.sources.map((source: LinkSource) => [
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
    item.suggestion && suggestionLine(item.suggestion),
  ]);
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
