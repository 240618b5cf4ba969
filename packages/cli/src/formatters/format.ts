import type { ScanReport } from '../report.js';

export interface FormatOptions {
  /** ANSI colours (text only): on for a terminal unless NO_COLOR is set. */
  color: boolean;
  /** The CLI's version, named by formats that describe their tool (SARIF). */
  version: string;
}

/** Writes a whole report as one string in one output format. */
export type Formatter = (report: ScanReport, options: FormatOptions) => string;
