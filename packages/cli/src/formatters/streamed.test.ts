import { ScanStatus } from '@linkaudit/core';
import { describe, expect, it } from 'vitest';
import type { FinishedScan, ReportChecks, ScanReport } from '../report.js';
import { everyCheck, generatedScan } from '../test-support/generated-scan.js';
import * as oneString from '../test-support/one-string/index.js';
import {
  auditReport,
  failedReport,
  reportOf,
  rulesReport,
  shopReport,
} from '../test-support/reports.js';
import { csvReport } from './csv.js';
import { chunked, type FormatOptions, type Formatter } from './format.js';
import { jsonReport } from './json.js';
import { junitReport } from './junit.js';
import { sarifReport } from './sarif.js';
import { textReport } from './text.js';

const formats: [string, Formatter, oneString.OneStringFormatter][] = [
  ['text', textReport, oneString.formatText],
  ['json', jsonReport, oneString.formatJson],
  ['csv', csvReport, oneString.formatCsv],
  ['junit', junitReport, oneString.formatJunit],
  ['sarif', sarifReport, oneString.formatSarif],
];

const plain: FormatOptions = { color: false, version: '1.0.0' };
const coloured: FormatOptions = { color: true, version: '1.0.0' };

const { events, done } = generatedScan();

/** The generated scan through the real collector, with `checks` and a done event changed by `end`. */
function generatedReport(
  checks: Partial<ReportChecks>,
  end: Partial<FinishedScan> = {},
): ScanReport {
  return reportOf(events, { ...done, ...end }, checks);
}

const reports: [string, () => ScanReport][] = [
  ['every check and rule', () => generatedReport(everyCheck)],
  ['links only', () => generatedReport({})],
  [
    'stopped at the error limit',
    () =>
      generatedReport(
        { anchors: true },
        { status: ScanStatus.OverMaxLinks, stoppedBy: 'error-limit' },
      ),
  ],
  [
    'a failed scan with findings',
    () =>
      generatedReport(everyCheck, {
        status: ScanStatus.Failed,
        stoppedBy: 'error',
        error: 'gone "<&>"',
      }),
  ],
  ['the shop', () => shopReport],
  ['the audit', () => auditReport],
  ['the rules', () => rulesReport],
  ['a failed scan', () => failedReport],
];

describe('the streamed reports', () => {
  it('come from a generated scan with thousands of findings of every kind', () => {
    const report = generatedReport(everyCheck);
    expect(report.broken.length).toBeGreaterThan(1000);
    expect(report.broken.reduce((sum, item) => sum + item.sources.length, 0)).toBeGreaterThan(
      10_000,
    );
    expect(Math.max(...report.broken.map((item) => item.sources.length))).toBe(6000);
    expect(report.unverified).toHaveLength(50);
    expect(report.brokenAnchors).toHaveLength(300);
    expect(report.duplicateAnchors).toHaveLength(200);
    expect(report.fattestPages.length).toBeGreaterThan(40);
    expect(report.pageRanks).toHaveLength(400);
    expect(report.pageInclusion).toHaveLength(400);
    expect(report.rules?.violations).toHaveLength(3000);
  });

  describe.each(reports)('of %s', (_name, make) => {
    it.each(formats)(
      'in %s are byte for byte what the one-string formatter made',
      (format, streamed, whole) => {
        const report = make();
        for (const options of format === 'text' ? [plain, coloured] : [plain]) {
          const expected = whole(report, options);
          const pieces = [...streamed(report, options)];
          expect(pieces.join('')).toBe(expected);
          expect([...chunked(streamed(report, options), 4096)].join('')).toBe(expected);
        }
      },
    );
  });

  it.each(formats)(
    'in %s come in small pieces, however many sources one broken URL has',
    (format, streamed, whole) => {
      const report = generatedReport(everyCheck);
      const pieces = [...streamed(report, plain)];
      const longest = Math.max(...pieces.map((piece) => piece.length));
      // The report is megabytes; the URL in every page's layout alone is 6,000 lines of it.
      expect(whole(report, plain).length).toBeGreaterThan(format === 'text' ? 500_000 : 1_000_000);
      expect(longest).toBeLessThan(64 * 1024);
    },
  );
});

describe('chunked', () => {
  it('joins pieces into chunks of at least the size, the last one shorter, the text the same', () => {
    const pieces = Array.from(
      { length: 1000 },
      (_, index) => `${'x'.repeat(index % 50)}${index}\n`,
    );
    const chunks = [...chunked(pieces, 1000)];
    expect(chunks.join('')).toBe(pieces.join(''));
    for (const chunk of chunks.slice(0, -1)) {
      expect(chunk.length).toBeGreaterThanOrEqual(1000);
      expect(chunk.length).toBeLessThan(1000 + 60);
    }
    expect(chunks.at(-1)!.length).toBeGreaterThan(0);
  });

  it('makes nothing of nothing, and passes a long piece whole', () => {
    expect([...chunked([], 10)]).toEqual([]);
    expect([...chunked(['', ''], 10)]).toEqual([]);
    expect([...chunked(['a'.repeat(25), 'b'], 10)]).toEqual(['a'.repeat(25), 'b']);
  });
});
