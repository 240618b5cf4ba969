import type { ScanReport } from '../report.js';

export interface FormatOptions {
  /** ANSI colours (text only): on for a terminal unless NO_COLOR is set. */
  color: boolean;
  /** The CLI's version, named by formats that describe their tool (SARIF). */
  version: string;
}

/**
 * Writes a report in one output format as pieces of text, in order: each piece is small (a line,
 * a JSON value of one entry), so the report is never one string in memory, however large the
 * site; joined, they are the whole report.
 */
export type Formatter = (report: ScanReport, options: FormatOptions) => Iterable<string>;

/** A formatter's report as one string (for small reports and tests). */
export function oneString(
  formatter: Formatter,
): (report: ScanReport, options: FormatOptions) => string {
  return (report, options) => [...formatter(report, options)].join('');
}

/**
 * Pieces joined into chunks of at least `size` characters (the last one may be shorter), so a
 * report of 100,000 lines takes a few hundred writes, not 100,000.
 */
export function* chunked(pieces: Iterable<string>, size = 64 * 1024): Generator<string> {
  let parts: string[] = [];
  let length = 0;
  for (const piece of pieces) {
    parts.push(piece);
    length += piece.length;
    if (length >= size) {
      yield parts.join('');
      parts = [];
      length = 0;
    }
  }
  if (length > 0) yield parts.join('');
}
