import type { FormatOptions } from '../../formatters/format.js';
import type { ScanReport } from '../../report.js';

/** The shape of every one-string format: the whole report made as one string. */
export type OneStringFormatter = (report: ScanReport, options: FormatOptions) => string;
