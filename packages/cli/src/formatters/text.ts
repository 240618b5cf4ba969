import { asWarnedProblem } from './open-web.js';
import { styleText } from 'node:util';
import {
  limits,
  ruleCategoryLabel,
  ScanStatus,
  suggestionLine,
  type PostCrawlPhase,
  type RenderingSummary,
} from '@linkaudit/core';
import type {
  CertificateEvent,
  PageInclusionEvent,
  PageSizeEvent,
  RedirectHop,
  StopCause,
} from '@linkaudit/engine';
import {
  anchorName,
  certificateProblems,
  describeAnswer,
  displayUrl,
  formatSource,
  groupByReason,
  isBrokenSitemapEntry,
  notCheckedCauses,
  notCheckedTitles,
  oneLine,
  sizeBuckets,
  type ProblemUrl,
  type ScanReport,
} from '../report.js';
import { oneString, type FormatOptions, type Formatter } from './format.js';

type Paint = (style: Parameters<typeof styleText>[0], text: string) => string;

const statusLabels: Partial<Record<number, string>> = {
  [ScanStatus.Complete]: 'Complete',
  [ScanStatus.Cancelled]: 'Cancelled',
  [ScanStatus.Failed]: 'Failed',
  [ScanStatus.Timeout]: 'Timed out',
  [ScanStatus.OverMaxLinks]: 'Link limit reached',
};

const stopLabels: Record<StopCause, string> = {
  'link-limit': 'the link limit was reached',
  'error-limit': 'the error limit was reached',
  timeout: 'the time limit was reached',
  cancelled: 'the scan was cancelled',
  error: 'an error',
};

const phaseLabels: Record<PostCrawlPhase, string> = {
  suggestions: 'suggested fixes',
  'page-sizes': 'page sizes',
  'page-rank': 'page rank',
  'page-inclusion': 'page inclusion',
};

/**
 * A summary a person can act on, then what is broken, grouped by why. Written a line at a time:
 * the sections that list every broken URL, anchor and source are generators.
 */
export const textReport: Formatter = (report, options) => textLines(report, options);

export const formatText = oneString(textReport);

function* textLines(report: ScanReport, options: FormatOptions): Generator<string> {
  const paint: Paint = options.color
    ? (style, text) => styleText(style, text, { validateStream: false })
    : (_style, text) => text;
  const sections = [
    summaryLines,
    brokenLines,
    fixedLines,
    unverifiedLines,
    warnedLines,
    notCheckedLines,
    brokenAnchorLines,
    duplicateAnchorLines,
    linkFixLines,
    certificateLines,
    heaviestPageLines,
    sizeBucketLines,
    fileTypeLines,
    pageRankLines,
    inclusionLines,
    ruleLines,
  ];
  for (const section of sections) {
    for (const line of section(report, paint)) yield `${line}\n`;
  }
}

function summaryLines(report: ScanReport, paint: Paint): string[] {
  const { done } = report;
  const { summary } = done;
  // Status 10 (OverMaxLinks) stands for both limits: the error limit has its own label.
  const label =
    done.stoppedBy === 'error-limit'
      ? 'Error limit reached'
      : (statusLabels[done.status] ?? `Status ${done.status}`);
  const statusStyle =
    done.status === ScanStatus.Failed
      ? 'red'
      : done.status === ScanStatus.Complete
        ? 'green'
        : 'yellow';
  const lines = [
    paint('bold', `LinkAudit scan of ${summary.startUrl}`),
    `  Status      ${paint(statusStyle, label)}`,
  ];
  if (done.stoppedBy && done.stoppedBy !== 'error') {
    lines.push(`  Stopped     ${stopLabels[done.stoppedBy]}`);
  }
  if (done.error) lines.push(`  Error       ${paint('red', done.error)}`);
  if (summary.cutShort) {
    const phases = summary.cutShort.map((phase) => phaseLabels[phase]).join(', ');
    lines.push(`  Partial     ${paint('yellow', `${phases}: stopped at the time limit`)}`);
  }
  const rendering = renderingLine(summary.rendering);
  if (rendering) lines.push(`  Rendering   ${paint(rendering.style, rendering.text)}`);
  const broken = `${count(summary.brokenLinks, 'link')} to ${count(summary.uniqueBrokenLinks, 'URL')}`;
  lines.push(
    `  Pages       ${summary.pages}`,
    `  Links       ${summary.totalLinks} found, ${count(summary.uniqueLinks, 'unique URL')} checked`,
    `  Broken      ${summary.brokenLinks > 0 ? paint('red', broken) : 'none'}`,
  );
  if (report.baseline) {
    const known = count(report.baseline.known, 'known problem');
    const fixed = report.baseline.fixed.length;
    const fixedPart = fixed > 0 ? `, ${paint('green', `${fixed} fixed since the baseline`)}` : '';
    lines.push(
      `  Baseline    ${known} not listed, ${count(problemCount(report), 'new problem')}${fixedPart}`,
    );
  }
  if (summary.uniqueUnverifiedLinks > 0) {
    lines.push(`  Unverified  ${count(summary.uniqueUnverifiedLinks, 'URL')}`);
  }
  if (report.notChecked.length > 0) {
    lines.push(`  Skipped     ${count(report.notChecked.length, 'URL')} not checked on purpose`);
  }
  const anchors = anchorSummary(report, paint);
  if (anchors) lines.push(`  Anchors     ${anchors}`);
  if (report.certificates.length > 0) lines.push(`  TLS         ${tlsSummary(report, paint)}`);
  if (report.rules) {
    const { violations, results } = report.rules;
    const found =
      violations.length > 0
        ? paint('yellow', count(violations.length, 'violation'))
        : 'no violations';
    lines.push(`  Rules       ${found} of ${count(results.length, 'rule')}`);
  }
  lines.push(`  Duration    ${formatDuration(summary.durationMs)}`);
  return lines;
}

/**
 * What rendering did, why it could not, or (not asked for) that pages look built by script and
 * --render would read them; undefined when there is nothing to say.
 */
function renderingLine(
  rendering: RenderingSummary | undefined,
): { text: string; style: 'yellow' | 'reset' } | undefined {
  if (!rendering) return undefined;
  if (rendering.unavailable) return { text: rendering.unavailable, style: 'yellow' };
  if (rendering.requested) {
    const failed = rendering.failedPages ? `, ${count(rendering.failedPages, 'page')} not` : '';
    return {
      text: `${count(rendering.renderedPages ?? 0, 'page')} rendered${failed}`,
      style: 'reset',
    };
  }
  if (!rendering.scriptBuiltPages) return undefined;
  const pages = count(rendering.scriptBuiltPages, 'page');
  return {
    text: `${pages} look built by script (e.g. ${rendering.scriptBuiltExample}): their links may be missing; scan with --render to read them`,
    style: 'yellow',
  };
}

/** "3 broken links to 2 anchors, 2 duplicates, 1 unverifiable"; undefined when not worth a line. */
function anchorSummary(report: ScanReport, paint: Paint): string | undefined {
  const { summary } = report.done;
  const duplicates = Math.max(summary.duplicateAnchors, report.duplicateAnchors.length);
  if (!report.checks.anchors && duplicates === 0) return undefined;
  const parts: string[] = [];
  if (report.checks.anchors) {
    const links = report.brokenAnchors.reduce((sum, anchor) => sum + anchor.referenceCount, 0);
    parts.push(
      links > 0
        ? paint(
            'red',
            `${count(links, 'broken link')} to ${count(report.brokenAnchors.length, 'anchor')}`,
          )
        : 'none broken',
    );
  }
  if (duplicates > 0) parts.push(paint('yellow', count(duplicates, 'duplicate')));
  if (report.unverifiableAnchors > 0) parts.push(`${report.unverifiableAnchors} unverifiable`);
  return parts.join(', ');
}

function tlsSummary(report: ScanReport, paint: Paint): string {
  const { invalid, expiring } = certificateProblems(report);
  const hosts = count(report.certificates.length, 'host');
  if (invalid.length === 0 && expiring.length === 0) return `${hosts}, all certificates valid`;
  const parts: string[] = [];
  if (invalid.length > 0) parts.push(paint('red', `${invalid.length} invalid`));
  if (expiring.length > 0) {
    parts.push(paint('yellow', `${expiring.length} expiring within 30 days`));
  }
  return `${hosts}: ${parts.join(', ')}`;
}

function* brokenLines(report: ScanReport, paint: Paint): Generator<string> {
  if (report.broken.length === 0) {
    if (report.done.status === ScanStatus.Failed) return;
    // Known problems the baseline leaves out are still broken: say so, not "No broken links.".
    const known = report.baseline?.known ?? 0;
    const message =
      known > 0
        ? `No new broken links; ${count(known, 'known problem')} ${known === 1 ? 'remains' : 'remain'} (baseline).`
        : 'No broken links.';
    yield* ['', paint('green', message)];
    return;
  }
  for (const [reason, items] of groupByReason(report.broken)) {
    yield* ['', paint(['bold', 'red'], `${reason} (${items.length})`)];
    for (const item of items) yield* problemLines(item, item.check.redirects, paint);
  }
}

/** With --baseline: the baseline's problems this run did not find. */
function* fixedLines(report: ScanReport, paint: Paint): Generator<string> {
  const fixed = report.baseline?.fixed ?? [];
  if (fixed.length === 0) return;
  yield* ['', paint(['bold', 'green'], `Fixed since the baseline (${fixed.length})`)];
  for (const key of fixed) yield `  ${key}`;
}

function* unverifiedLines(report: ScanReport, paint: Paint): Generator<string> {
  if (report.unverified.length === 0) return;
  yield* [
    '',
    paint(['bold', 'yellow'], `Could not be verified (${report.unverified.length})`),
    paint(
      'dim',
      '  Bot protection, rate limits, sign-in or a slow host kept them from being checked; check them in a browser.',
    ),
  ];
  for (const item of report.unverified) yield* problemLines(item, [], paint);
}

function* warnedLines(report: ScanReport, paint: Paint): Generator<string> {
  if (report.warnings.length === 0) return;
  yield* [
    '',
    paint(
      ['bold', 'yellow'],
      `Working, but perhaps not what they mean (${report.warnings.length})`,
    ),
    paint('dim', '  Soft 404s and login walls: the link answers, but not with its page.'),
  ];
  for (const item of report.warnings) yield* problemLines(asWarnedProblem(item), [], paint);
}

/** How many URLs of each cause the text report lists; JSON, CSV, JUnit and SARIF have them all. */
export const notCheckedShown = 20;

/**
 * What the scan left unchecked on purpose, by cause: each URL with why and where it was found,
 * at most notCheckedShown per cause.
 */
function* notCheckedLines(report: ScanReport, paint: Paint): Generator<string> {
  if (report.notChecked.length === 0) return;
  yield* [
    '',
    paint(['bold', 'yellow'], `Not checked on purpose (${report.notChecked.length})`),
    paint('dim', '  The scan skipped these to protect itself; their links were not checked.'),
  ];
  for (const cause of notCheckedCauses) {
    const items = report.notChecked.filter((item) => item.check.cause === cause);
    if (items.length === 0) continue;
    yield paint('bold', `  ${notCheckedTitles[cause]} (${items.length})`);
    for (const item of items.slice(0, notCheckedShown)) {
      yield `    ${displayUrl(item.url)}`;
      yield `      ${item.check.message}, ${count(item.referenceCount, 'reference')}`;
      const [first] = item.sources;
      if (first) {
        const more = item.referenceCount - 1;
        yield paint('dim', `      ${formatSource(first)}${more > 0 ? ` and ${more} more` : ''}`);
      }
    }
    if (items.length > notCheckedShown) {
      yield `    and ${items.length - notCheckedShown} more (all in --format json)`;
    }
  }
}

function* brokenAnchorLines(report: ScanReport, paint: Paint): Generator<string> {
  const { brokenAnchors, unverifiableAnchors } = report;
  if (brokenAnchors.length === 0 && unverifiableAnchors === 0) return;
  yield '';
  if (brokenAnchors.length > 0) {
    yield paint(['bold', 'red'], `Broken anchors (${brokenAnchors.length})`);
  } else {
    yield paint('bold', 'Anchors');
  }
  for (const anchor of brokenAnchors) {
    yield `  ${anchor.url}`;
    yield `    no element with id or name "${anchorName(anchor.fragment)}", ${count(anchor.referenceCount, 'reference')}`;
    if (anchor.suggestion) yield paint('green', `    fix: ${suggestionLine(anchor.suggestion)}`);
    for (const source of anchor.sources) yield paint('dim', `    ${formatSource(source)}`);
  }
  if (unverifiableAnchors > 0) {
    yield paint(
      'dim',
      `  ${count(unverifiableAnchors, 'link')} to a #fragment could not be verified: the target is not an HTML page that could be read.`,
    );
  }
}

function* duplicateAnchorLines(report: ScanReport, paint: Paint): Generator<string> {
  const duplicates = report.duplicateAnchors;
  if (duplicates.length === 0) return;
  yield* ['', paint(['bold', 'yellow'], `Duplicate anchors (${duplicates.length})`)];
  for (const { page, name, first, duplicate } of duplicates) {
    yield `  ${page}:${duplicate.line}:${duplicate.column} "${name}", first at ${first.line}:${first.column}`;
  }
}

function certificateLines(report: ScanReport, paint: Paint): string[] {
  const { invalid, expiring } = certificateProblems(report);
  if (invalid.length === 0 && expiring.length === 0) return [];
  const problems = [
    ...(invalid.length > 0 ? [`${invalid.length} invalid`] : []),
    ...(expiring.length > 0 ? [`${expiring.length} expiring within 30 days`] : []),
  ];
  return [
    '',
    paint(['bold', invalid.length > 0 ? 'red' : 'yellow'], `Certificates (${problems.join(', ')})`),
    ...invalid.flatMap((certificate) => [
      `  ${certificate.host}`,
      `    ${certificate.problem ?? 'invalid'}: ${certificate.message}${certificate.validTo ? `, valid until ${day(certificate.validTo)}` : ''}`,
    ]),
    ...expiring.flatMap((certificate) => [
      `  ${certificate.host}`,
      `    ${expiryText(certificate)}`,
    ]),
  ];
}

function expiryText(certificate: CertificateEvent): string {
  const days = certificate.daysLeft;
  const when = days === undefined ? 'soon' : days === 0 ? 'today' : `in ${count(days, 'day')}`;
  return `expires ${when}${certificate.validTo ? `, on ${day(certificate.validTo)}` : ''}`;
}

/** "2025-06-11T12:00:00.000Z" → "2025-06-11". */
function day(isoDate: string): string {
  return isoDate.slice(0, 10);
}

const fatLimit = `${limits.fattestPageBytes / limits.bytesPerMb} MiB`;

/** The heaviest pages, each fat one with its weight per content type; bounded to a few lines. */
function heaviestPageLines(report: ScanReport, paint: Paint): string[] {
  const pages = report.heaviestPages;
  if (pages.length === 0) return [];
  const fat = Math.max(report.done.summary.fattestPages, report.fattestPages.length);
  const title = `Heaviest pages (${fat > 0 ? count(fat, 'page') : 'none'} over ${fatLimit})`;
  const sizes = pages.map((page) => formatSize(page.totalBytes));
  const width = Math.max(...sizes.map((size) => size.length));
  const lines = ['', paint(fat > 0 ? ['bold', 'yellow'] : 'bold', title)];
  pages.forEach((page, index) => {
    lines.push(`  ${(sizes[index] ?? '').padStart(width)}  ${page.page}`);
    if (page.totalBytes > limits.fattestPageBytes) {
      lines.push(paint('dim', `  ${' '.repeat(width)}  ${contentsText(page)}`));
    }
  });
  const shownFat = pages.filter((page) => page.totalBytes > limits.fattestPageBytes).length;
  if (fat > shownFat) {
    lines.push(
      `  and ${count(fat - shownFat, 'more page')} over ${fatLimit} (all in --format json)`,
    );
  }
  return lines;
}

/** "image/jpeg 2.5 MB (3 files), text/html 50.0 kB (1 file), 1 of unknown size". */
function contentsText(page: PageSizeEvent): string {
  const parts = page.contents.map(
    (content) =>
      `${content.contentType} ${formatSize(content.totalSize)} (${count(content.count, 'file')})`,
  );
  if (page.unknownSizes > 0) parts.push(`${page.unknownSizes} of unknown size`);
  return parts.join(', ');
}

function sizeBucketLines(report: ScanReport, paint: Paint): string[] {
  const buckets = sizeBuckets(report.done.summary);
  if (buckets.every((bucket) => bucket.pages === 0)) return [];
  const mib = (bytes: number): number => bytes / limits.bytesPerMb;
  const rows = buckets.map(({ fromBytes, toBytes, pages }) => [
    fromBytes === 0
      ? `under ${mib(toBytes ?? 0)} MiB`
      : toBytes === null
        ? `${mib(fromBytes)} MiB and over`
        : `${mib(fromBytes)}-${mib(toBytes)} MiB`,
    String(pages),
  ]);
  return [
    '',
    paint('bold', 'Pages by total size (HTML and resources; 1 MiB = 1,048,576 bytes)'),
    ...table(rows, ['left', 'right']),
  ];
}

function fileTypeLines(report: ScanReport, paint: Paint): string[] {
  const types = report.done.summary.fileTypes;
  if (types.length === 0) return [];
  const rows = [
    ['content type', 'files', 'size'],
    ...types.map((type) => [type.contentType, String(type.count), formatSize(type.totalSize)]),
  ];
  return ['', paint('bold', 'File types'), ...table(rows, ['left', 'right', 'right'])];
}

const pageRankShown = 20;

function pageRankLines(report: ScanReport, paint: Paint): string[] {
  const ranks = report.pageRanks;
  if (!ranks || ranks.length === 0) return [];
  const top = ranks.slice(0, pageRankShown);
  const rows = [
    ['score', 'rank', 'page'],
    ...top.map((entry) => [entry.score.toFixed(1), formatRank(entry.rank), entry.page]),
  ];
  const title =
    ranks.length > top.length
      ? `Page rank (top ${top.length} of ${ranks.length} pages)`
      : `Page rank (${count(ranks.length, 'page')})`;
  return ['', paint('bold', title), ...table(rows, ['right', 'right', 'left'])];
}

/** Four significant digits: ranks sum to 1 over the site, so they shrink as it grows. */
function formatRank(rank: number): string {
  return rank === 0 ? '0' : rank.toPrecision(4);
}

const inclusionListLength = 20;

const notIndexableReasons: Record<string, string> = {
  'noindex-meta': 'noindex (meta robots)',
  'noindex-header': 'noindex (X-Robots-Tag)',
  'robots-txt': 'disallowed by robots.txt',
  redirect: 'redirects elsewhere',
  'not-html': 'not an HTML page',
  'not-checked': 'not checked',
};

function inclusionLines(report: ScanReport, paint: Paint): string[] {
  const entries = report.pageInclusion;
  const sitemap = report.done.summary.sitemap;
  if (!entries || (!sitemap && entries.length === 0)) return [];
  const crawled = entries.filter((entry) => !isBrokenSitemapEntry(entry));
  const notIndexable = crawled.filter((entry) => !entry.indexable);
  const lines = ['', paint('bold', 'Page inclusion')];
  const field = (label: string, value: string) => lines.push(`  ${label.padEnd(17)}${value}`);
  const sitemaps = sitemap?.sitemaps ?? [];
  field(
    'Sitemaps',
    sitemaps.length === 0
      ? 'none found (robots.txt, /sitemap.xml)'
      : `${sitemaps.slice(0, 3).join(', ')}${sitemaps.length > 3 ? ` and ${sitemaps.length - 3} more` : ''}`,
  );
  if (sitemap && sitemaps.length > 0) {
    field('Sitemap URLs', String(sitemap.urls));
    field('Orphans', `${sitemap.orphans} (in the sitemap, linked from no page)`);
    field(
      'Sitemap entries',
      `${sitemap.broken} broken, ${sitemap.redirected} redirected, ${sitemap.notIndexable} not indexable`,
    );
    field('Not in sitemap', count(sitemap.missingFromSitemap, 'indexable page'));
  }
  field('Not indexable', count(notIndexable.length, 'page'));
  lines.push(
    ...boundedList(
      'Orphan pages',
      entries.filter((entry) => entry.orphan),
      (entry) => entry.page,
      paint,
    ),
    ...boundedList(
      'Not indexable',
      notIndexable,
      (entry) =>
        `${entry.page}: ${entry.notIndexableBecause.map((reason) => reasonText(entry, reason)).join(', ')}`,
      paint,
    ),
    ...boundedList(
      'Broken sitemap entries',
      entries.filter(isBrokenSitemapEntry),
      (entry) => `${entry.page}: ${entry.statusCode ?? 'no answer'}`,
      paint,
    ),
  );
  return lines;
}

function reasonText(entry: PageInclusionEvent, reason: string): string {
  if (reason === 'status') return `status ${entry.statusCode ?? 'unknown'}`;
  if (reason === 'canonical-elsewhere') return `canonical is ${entry.canonical ?? 'elsewhere'}`;
  return notIndexableReasons[reason] ?? reason;
}

/** A titled list of at most 20 lines, then "and N more". Nothing when the list is empty. */
function boundedList<T>(
  title: string,
  items: readonly T[],
  line: (item: T) => string,
  paint: Paint,
): string[] {
  if (items.length === 0) return [];
  const lines = [
    paint(['bold', 'yellow'], `  ${title} (${items.length})`),
    ...items.slice(0, inclusionListLength).map((item) => `    ${line(item)}`),
  ];
  if (items.length > inclusionListLength) {
    lines.push(`    and ${items.length - inclusionListLength} more (all in --format json)`);
  }
  return lines;
}

/** How many violations of one rule the text report shows; JSON, CSV and SARIF have them all. */
export const ruleViolationsShown = 10;

/**
 * Per category the page checks that failed and passed (summary.rules), then each rule with
 * violations: its first violations as page:line:column and snippet, and its explanation page.
 */
function ruleLines(report: ScanReport, paint: Paint): string[] {
  const rules = report.rules;
  if (!rules) return [];
  const { summary, results, violations } = rules;
  const pages = summary ? `, ${count(summary.checkedPages, 'page')} checked` : '';
  const title = `Quality rules (${count(violations.length, 'violation')}${pages})`;
  const lines = ['', paint(['bold', violations.length > 0 ? 'yellow' : 'green'], title)];
  if (summary && summary.categories.length > 0) {
    lines.push(
      ...table(
        [
          ['category', 'failed', 'passed'],
          ...summary.categories.map(({ categoryID, failed, passed }) => [
            ruleCategoryLabel(categoryID),
            String(failed),
            String(passed),
          ]),
        ],
        ['left', 'right', 'right'],
      ),
      paint('dim', '  (failed and passed count pages per rule)'),
    );
  }
  for (const { rule, violations: found } of results) {
    if (found.length === 0) continue;
    lines.push(
      '',
      paint('bold', `  ${rule.id} ${rule.name} (${count(found.length, 'violation')})`),
      ...found.slice(0, ruleViolationsShown).map((finding) => {
        const message = finding.message ? paint('dim', `  (${oneLine(finding.message)})`) : '';
        return `    ${finding.url}:${finding.line}:${finding.column}  ${oneLine(finding.snippet)}${message}`;
      }),
    );
    if (found.length > ruleViolationsShown) {
      lines.push(`    and ${found.length - ruleViolationsShown} more (all in --format json)`);
    }
    lines.push(paint('dim', `    ${rule.helpUrl}`));
  }
  const clean = results.filter((result) => result.violations.length === 0).length;
  if (clean > 0) lines.push('', `  ${count(clean, 'rule')} without violations`);
  return lines;
}

/** Columns padded to their widest cell, two spaces apart, indented by two. */
function table(rows: readonly string[][], align: readonly ('left' | 'right')[]): string[] {
  const widths = align.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  return rows.map((row) => {
    const cells = row.map((cell, column) =>
      align[column] === 'right'
        ? cell.padStart(widths[column] ?? 0)
        : cell.padEnd(widths[column] ?? 0),
    );
    return `  ${cells.join('  ')}`.trimEnd();
  });
}

function* problemLines(
  item: ProblemUrl<{ statusCode?: number; message: string }>,
  redirects: readonly RedirectHop[],
  paint: Paint,
): Generator<string> {
  yield `  ${displayUrl(item.url)}`;
  yield `    ${describeAnswer(item.check.statusCode, item.check.message)}, ${count(item.referenceCount, 'reference')}`;
  if (redirects.length > 0) {
    const chain = redirects.map((hop) => `${hop.url} (${hop.statusCode})`).join(' -> ');
    yield `    redirects: ${chain}`;
  }
  if (item.suggestion) yield paint('green', `    fix: ${suggestionLine(item.suggestion)}`);
  for (const source of item.sources) yield paint('dim', `    ${formatSource(source)}`);
}

/** Working links with a better address: a redirect's end, the https twin (issue 27). */
function* linkFixLines(report: ScanReport, paint: Paint): Generator<string> {
  if (report.linkFixes.length === 0) return;
  yield* ['', paint(['bold', 'yellow'], `Links to update (${report.linkFixes.length})`)];
  for (const fix of report.linkFixes.slice(0, notCheckedShown)) {
    yield `  ${displayUrl(fix.url)}`;
    yield paint('green', `    fix: ${suggestionLine(fix.suggestion)}`);
  }
  if (report.linkFixes.length > notCheckedShown) {
    yield `  and ${report.linkFixes.length - notCheckedShown} more (all in --format json)`;
  }
}

function count(amount: number, noun: string): string {
  return `${amount} ${noun}${amount === 1 ? '' : 's'}`;
}

const sizeUnits = ['B', 'kB', 'MB', 'GB', 'TB'];

/** Sizes as people read them, base 1000 (SPEC §9): 850 B, 12.3 kB, 2.5 MB. */
export function formatSize(bytes: number): string {
  const base = limits.sizeDisplayBase;
  if (bytes < base) return `${bytes} B`;
  let value = bytes;
  let unit = 0;
  // Rounded to one decimal, 999,950 B would read "1000.0 kB": it is 1.0 MB.
  while (Number(value.toFixed(1)) >= base && unit < sizeUnits.length - 1) {
    value /= base;
    unit += 1;
  }
  return `${value.toFixed(1)} ${sizeUnits[unit]}`;
}

/** 850 ms, 4.3 s, 2 min 05 s, 1 h 02 min. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 59_950) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  const pad = (value: number): string => String(value).padStart(2, '0');
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${pad(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${pad(Math.floor(seconds / 60) % 60)} min`;
}

/** Broken URLs, anchors and invalid certificates listed (with a baseline: the new ones). */
function problemCount(report: ScanReport): number {
  const certificates = report.certificates.filter((certificate) => !certificate.valid).length;
  return report.broken.length + report.brokenAnchors.length + certificates;
}
