import type { LinkSource, ProblemUrl, ScanReport } from '../report.js';
import type { Formatter } from './format.js';

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
];

type Cell = string | number | undefined;

/** One row per broken or unverified link occurrence (RFC 4180, CRLF line ends). */
export const formatCsv: Formatter = (report: ScanReport) => {
  const rows: Cell[][] = [header];
  for (const item of report.broken) rows.push(...occurrenceRows('broken', item.check.reason, item));
  for (const item of report.unverified) rows.push(...occurrenceRows('unverified', '', item));
  return rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
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
