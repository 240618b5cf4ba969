// The report PDF's writer alone, in this process, with N synthetic broken links (the bench site
// has 421): time to first byte, total time and peak resident set as N grows, to show that the
// PDF's memory does not follow its rows. The client takes every chunk at once (no backpressure
// wait); rows come from an async generator as the database's would. Uses the built server.
//
//   npm run build:ts && node bench/report-pdf-rows.mjs [N] [--fixes]
//
// --fixes gives every row a suggested fix (issue 27: a closest page, its address and reason),
// the most a PDF can draw per row.
import { streamPdf } from '../packages/server/dist/modules/reports/pdf/pdf-stream.js';
import {
  pdfPageOptions,
  writeReportPdf,
} from '../packages/server/dist/modules/reports/pdf/report-pdf.js';
const n = Number(process.argv[2] ?? 20000);
const fixes = process.argv.includes('--fixes');
const model = {
  scanId: 'x',
  url: 'http://example.com/',
  status: 1,
  numPages: 1,
  totalLinks: n,
  uniqueLinks: n,
  badLinks: n,
  uniqueBadLinks: n,
  brokenAnchors: 0,
  duplicateAnchors: 0,
  fattestPages: 0,
  certificateProblems: 0,
  duration: 1000,
  scanSettingsJson: '{}',
  reasons: [{ failureReason: 'Not Found', numberOfReferences: n }],
  pageSizeBuckets: [],
  contentTypeSizes: [],
  ruleCategories: [],
  brokenSamples: [],
  ruleSamples: [],
};
async function* rows() {
  for (let i = 0; i < n; i++)
    yield {
      targetUri: `http://example.com/a/very/long/path/number/${i}/page.html?query=${i}`,
      sourceUri: `http://example.com/source/${i % 500}.html`,
      statusDetail: '',
      statusCode: 404,
      failureReason: 'Not Found',
      errorMessage: null,
      referenceCount: 1,
      element: 'a',
      line: i % 300,
      column: 5,
      anchor: null,
      suggestion: fixes
        ? {
            kind: 'closest-page',
            basis: 'path',
            url: `http://example.com/a/very/long/path/number/${i}/pages.html`,
            confidence: 0.93,
            hops: null,
          }
        : null,
    };
}
async function* none() {}
let peak = 0;
const t = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 5);
const before = process.memoryUsage().rss;
const started = performance.now();
let bytes = 0;
let first;
for await (const chunk of streamPdf(pdfPageOptions, (w) =>
  writeReportPdf(w, {
    language: 'en',
    model,
    scannedAt: new Date(),
    ruleCounts: [],
    fattest: none(),
    duplicates: none(),
    broken: rows(),
  }),
)) {
  first ??= performance.now() - started;
  bytes += chunk.length;
}
clearInterval(t);
console.log(
  `${n} broken rows${fixes ? ' with fixes' : ''}: ${(bytes / 1e6).toFixed(2)} MB PDF, first byte ${first.toFixed(0)} ms, total ${(performance.now() - started).toFixed(0)} ms, rss before ${(before / 1048576).toFixed(0)} MB, peak ${(peak / 1048576).toFixed(0)} MB`,
);
