import { unverifiedCauseWords } from './open-web.js';
import { ruleCategoryLabel, ScanStatus } from '@linkaudit/core';
import type { CertificateEvent, DuplicateAnchorEvent, PageInclusionEvent } from '@linkaudit/engine';
import {
  anchorName,
  certificateProblems,
  describeAnswer,
  displayUrl,
  formatSource,
  inclusionMessage,
  inclusionReason,
  oneLine,
  reasonSlug,
  statusName,
  type BrokenAnchor,
  type BrokenUrl,
  type LinkSource,
  type NotCheckedUrl,
  type RuleResult,
  type ScanReport,
  type UnverifiedUrl,
} from '../report.js';
import { oneString, type Formatter } from './format.js';
import { xmlAttribute, xmlText } from './xml.js';

/**
 * One test suite for CI dashboards: a failing test case per broken URL, per missing #fragment and
 * per host with an invalid certificate; a skipped one per URL that could not be verified and per
 * URL not checked on purpose (crawler trap, page link cap, scan limit); a passing
 * one carrying a warning per duplicate anchor and per certificate that expires soon; an error when
 * the scan itself failed; and one passing case that counts the links that are fine, so the totals
 * in the CI summary mean something. Failures and the exit code agree: warnings pass.
 */
export const junitReport: Formatter = (report) => junitPieces(report);

export const formatJunit = oneString(junitReport);

function* junitPieces(report: ScanReport): Generator<string> {
  const failed = report.done.status === ScanStatus.Failed;
  const { invalid, expiring } = certificateProblems(report);
  const time = report.done.summary.durationMs / 1000;
  const linkSuite: Suite = {
    name: `linkaudit ${report.done.summary.startUrl}`,
    counts: {
      tests:
        1 +
        report.broken.length +
        report.unverified.length +
        report.notChecked.length +
        report.brokenAnchors.length +
        report.duplicateAnchors.length +
        invalid.length +
        expiring.length +
        (failed ? 1 : 0),
      failures: report.broken.length + report.brokenAnchors.length + invalid.length,
      errors: failed ? 1 : 0,
      skipped: report.unverified.length + report.notChecked.length,
      time,
    },
    properties: properties(report),
    cases: linkCases(report, invalid, expiring),
  };
  const suites = [linkSuite, ...ruleSuites(report), ...inclusionSuites(report)];
  const total = (name: 'tests' | 'failures' | 'errors' | 'skipped'): number =>
    suites.reduce((sum, suite) => sum + suite.counts[name], 0);
  const totals = totalsText({
    tests: total('tests'),
    failures: total('failures'),
    errors: total('errors'),
    skipped: total('skipped'),
    time,
  });
  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  yield `<testsuites name="linkaudit" ${totals}>\n`;
  for (const suite of suites) yield* suitePieces(suite);
  yield '</testsuites>\n';
}

/** The cases of the link suite, made one at a time (a broken URL's case lists all its sources). */
function* linkCases(
  report: ScanReport,
  invalid: readonly CertificateEvent[],
  expiring: readonly CertificateEvent[],
): Generator<Case> {
  yield [okCase(report)];
  for (const item of report.broken) yield brokenCase(item);
  for (const item of report.unverified) yield unverifiedCase(item);
  for (const item of report.notChecked) yield notCheckedCase(item);
  for (const anchor of report.brokenAnchors) yield brokenAnchorCase(anchor);
  for (const duplicate of report.duplicateAnchors) yield [duplicateAnchorCase(duplicate)];
  for (const certificate of invalid) yield [invalidCertificateCase(certificate)];
  for (const certificate of expiring) yield [expiringCertificateCase(certificate)];
  if (report.done.status === ScanStatus.Failed) yield [scanErrorCase(report)];
}

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  /** Seconds. */
  time: number;
}

/** One <testcase> element in pieces of text, without the line end after it. */
type Case = Iterable<string>;

interface Suite {
  name: string;
  counts: Counts;
  properties: [string, string | number][];
  cases: Iterable<Case>;
}

function totalsText(counts: Counts): string {
  return Object.entries({ ...counts, time: counts.time.toFixed(3) })
    .map(([name, value]) => `${name}="${value}"`)
    .join(' ');
}

function* suitePieces(suite: Suite): Generator<string> {
  yield `  <testsuite name="${xmlAttribute(suite.name)}" ${totalsText(suite.counts)}>\n`;
  yield '    <properties>\n';
  for (const [name, value] of suite.properties) {
    yield `      <property name="${name}" value="${xmlAttribute(value)}"/>\n`;
  }
  yield '    </properties>\n';
  for (const testCase of suite.cases) {
    yield* testCase;
    yield '\n';
  }
  yield '  </testsuite>\n';
}

/** How many violations one failing rule case lists; JSON, CSV and SARIF have them all. */
export const junitViolationsListed = 100;

/**
 * With --rules, a suite per rule category: a failing case per rule with violations (listing them)
 * and a passing case per rule without. Rule failures are findings for the dashboard: they do not
 * change the exit code (docs/decisions.md).
 */
function ruleSuites(report: ScanReport): Suite[] {
  const rules = report.rules;
  if (!rules) return [];
  const categories = new Map<number, RuleResult[]>();
  for (const result of rules.results) {
    const list = categories.get(result.rule.categoryID);
    if (list) list.push(result);
    else categories.set(result.rule.categoryID, [result]);
  }
  return [...categories]
    .sort(([a], [b]) => a - b)
    .map(([categoryID, results]) => {
      const tally = rules.summary?.categories.find((entry) => entry.categoryID === categoryID);
      return {
        name: `linkaudit rules: ${ruleCategoryLabel(categoryID)}`,
        counts: {
          tests: results.length,
          failures: results.filter((result) => result.violations.length > 0).length,
          errors: 0,
          skipped: 0,
          time: 0,
        },
        properties: [
          ['categoryID', categoryID],
          ...(rules.summary
            ? [['checkedPages', rules.summary.checkedPages] as [string, number]]
            : []),
          ...(tally
            ? [
                ['failed', tally.failed] as [string, number],
                ['passed', tally.passed] as [string, number],
              ]
            : []),
        ],
        cases: results.map((result) => [ruleCase(result)]),
      };
    });
}

function ruleCase({ rule, violations }: RuleResult): string {
  const open = `    <testcase classname="rule.${xmlAttribute(rule.slug.replaceAll('/', '.'))}" name="${xmlAttribute(`${rule.id} ${rule.name}`)}" time="0">`;
  if (violations.length === 0) return open.replace(/>$/, '/>');
  const message = `${violations.length} violation${violations.length === 1 ? '' : 's'}`;
  const body = [
    ...(rule.prompt ? [rule.prompt] : []),
    rule.helpUrl,
    ...violations.slice(0, junitViolationsListed).map((finding) => {
      const note = finding.message ? ` (${oneLine(finding.message)})` : '';
      return `  ${finding.url}:${finding.line}:${finding.column}  ${oneLine(finding.snippet)}${note}`;
    }),
    ...(violations.length > junitViolationsListed
      ? [`  and ${violations.length - junitViolationsListed} more (all in --format json)`]
      : []),
  ].join('\n');
  return [
    open,
    `      <failure type="${xmlAttribute(rule.name)}" message="${xmlAttribute(message)}">${xmlText(body)}</failure>`,
    '    </testcase>',
  ].join('\n');
}

function properties(report: ScanReport): [string, string | number][] {
  const { done } = report;
  const { summary } = done;
  const list: [string, string | number][] = [
    ['startUrl', summary.startUrl],
    ['status', statusName(done.status)],
  ];
  if (done.stoppedBy) list.push(['stoppedBy', done.stoppedBy]);
  list.push(
    ['pages', summary.pages],
    ['totalLinks', summary.totalLinks],
    ['uniqueLinks', summary.uniqueLinks],
    ['brokenLinks', summary.brokenLinks],
    ['brokenAnchors', summary.brokenAnchors],
    ['duplicateAnchors', summary.duplicateAnchors],
    ['fattestPages', summary.fattestPages],
    ['certificateProblems', summary.certificateProblems],
  );
  return list;
}

function okCase(report: ScanReport): string {
  const { summary } = report.done;
  const name = `${report.okLinks} of ${summary.totalLinks} links OK`;
  const detail = `${summary.uniqueLinks} unique URLs checked on ${summary.pages} pages`;
  return [
    `    <testcase classname="linkaudit" name="${xmlAttribute(name)}" time="0">`,
    `      <system-out>${xmlText(detail)}</system-out>`,
    '    </testcase>',
  ].join('\n');
}

function* brokenCase(item: BrokenUrl): Generator<string> {
  const { check } = item;
  const answer = describeAnswer(check.statusCode, check.message);
  yield `    <testcase classname="broken-link.${reasonSlug(check.reason)}" name="${xmlAttribute(displayUrl(item.url))}" time="0">\n`;
  yield `      <failure type="${xmlAttribute(check.reason)}" message="${xmlAttribute(answer)}">`;
  yield* xmlLines([
    `${check.reason}: ${answer}`,
    ...check.redirects.map((hop) => `redirected at ${hop.url} (${hop.statusCode})`),
    `referenced ${item.referenceCount} time${item.referenceCount === 1 ? '' : 's'}:`,
  ]);
  yield* sourceLines(item.sources);
  yield '</failure>\n    </testcase>';
}

function* unverifiedCase(item: UnverifiedUrl): Generator<string> {
  const answer = describeAnswer(item.check.statusCode, item.check.message);
  const message = `could not be verified (${unverifiedCauseWords[item.check.cause]}): ${answer}`;
  yield `    <testcase classname="unverified-link.${item.check.cause}" name="${xmlAttribute(displayUrl(item.url))}" time="0">\n`;
  yield `      <skipped message="${xmlAttribute(message)}"/>\n`;
  yield '      <system-out>';
  yield* xmlLines([
    `referenced ${item.referenceCount} time${item.referenceCount === 1 ? '' : 's'}:`,
  ]);
  yield* sourceLines(item.sources);
  yield '</system-out>\n    </testcase>';
}

/** A URL the scan did not check on purpose: skipped, with the engine's reason. */
function* notCheckedCase(item: NotCheckedUrl): Generator<string> {
  yield `    <testcase classname="not-checked.${item.check.cause}" name="${xmlAttribute(displayUrl(item.url))}" time="0">\n`;
  yield `      <skipped message="${xmlAttribute(item.check.message)}"/>\n`;
  yield '      <system-out>';
  const more = item.referenceCount - item.sources.length;
  yield* xmlLines([
    `referenced ${item.referenceCount} time${item.referenceCount === 1 ? '' : 's'}:`,
  ]);
  yield* sourceLines(item.sources);
  if (more > 0) yield `\n${xmlText(`  and ${more} more`)}`;
  yield '</system-out>\n    </testcase>';
}

function* brokenAnchorCase(anchor: BrokenAnchor): Generator<string> {
  const message = `no element with id or name "${anchorName(anchor.fragment)}" on ${anchor.page}`;
  yield `    <testcase classname="broken-anchor" name="${xmlAttribute(anchor.url)}" time="0">\n`;
  yield `      <failure type="Broken Anchor" message="${xmlAttribute(message)}">`;
  yield* xmlLines([
    message,
    `referenced ${anchor.referenceCount} time${anchor.referenceCount === 1 ? '' : 's'}:`,
  ]);
  yield* sourceLines(anchor.sources);
  yield '</failure>\n    </testcase>';
}

/** Lines of an element's text, each escaped and joined by line breaks (the first without one). */
function* xmlLines(lines: readonly string[]): Generator<string> {
  for (const [index, line] of lines.entries())
    yield index === 0 ? xmlText(line) : `\n${xmlText(line)}`;
}

/** Each source on a line of its own after the lines before it. */
function* sourceLines(sources: readonly LinkSource[]): Generator<string> {
  for (const source of sources) yield `\n${xmlText(`  ${formatSource(source)}`)}`;
}

function duplicateAnchorCase({ page, name, first, duplicate }: DuplicateAnchorEvent): string {
  const warning = `warning: the anchor "${name}" on ${page} is defined again at ${duplicate.line}:${duplicate.column} (first at ${first.line}:${first.column})`;
  return [
    `    <testcase classname="duplicate-anchor" name="${xmlAttribute(`${page}#${name}`)}" time="0">`,
    `      <system-out>${xmlText(warning)}</system-out>`,
    '    </testcase>',
  ].join('\n');
}

function invalidCertificateCase(certificate: CertificateEvent): string {
  const problem = certificate.problem ?? 'other';
  const body = [`${problem}: ${certificate.message}`, ...certificateDetails(certificate)];
  return [
    `    <testcase classname="certificate.${xmlAttribute(problem)}" name="${xmlAttribute(certificate.host)}" time="0">`,
    `      <failure type="Invalid Certificate" message="${xmlAttribute(certificate.message)}">${xmlText(body.join('\n'))}</failure>`,
    '    </testcase>',
  ].join('\n');
}

function expiringCertificateCase(certificate: CertificateEvent): string {
  const body = [`warning: ${certificate.message}`, ...certificateDetails(certificate)];
  return [
    `    <testcase classname="certificate.expires-soon" name="${xmlAttribute(certificate.host)}" time="0">`,
    `      <system-out>${xmlText(body.join('\n'))}</system-out>`,
    '    </testcase>',
  ].join('\n');
}

function certificateDetails(certificate: CertificateEvent): string[] {
  const details: [string, string | number | undefined][] = [
    ['error code', certificate.errorCode],
    ['subject', certificate.subject],
    ['issuer', certificate.issuer],
    ['valid until', certificate.validTo],
    ['days left', certificate.daysLeft],
  ];
  return details.flatMap(([name, value]) => (value === undefined ? [] : [`${name}: ${value}`]));
}

function scanErrorCase(report: ScanReport): string {
  const message = report.done.error ?? 'the scan failed';
  return [
    '    <testcase classname="linkaudit" name="scan" time="0">',
    `      <error type="Failed" message="${xmlAttribute(message)}"/>`,
    '    </testcase>',
  ].join('\n');
}

/**
 * With --page-inclusion, a suite of its own: a passing case per page and sitemap entry (classname
 * `page-inclusion.<orphan|in-sitemap|not-in-sitemap>`), its incoming links and indexability in
 * system-out, a warning first for orphans and sitemap entries that do not answer. Inclusion
 * findings are warnings: they never fail a run (docs/decisions.md), so no case fails.
 */
function inclusionSuites(report: ScanReport): Suite[] {
  const entries = report.pageInclusion;
  if (!entries) return [];
  const count = (reason: string) =>
    entries.filter((entry) => inclusionReason(entry) === reason).length;
  return [
    {
      name: 'linkaudit page inclusion',
      counts: { tests: entries.length, failures: 0, errors: 0, skipped: 0, time: 0 },
      properties: [
        ['orphans', count('orphan')],
        ['inSitemap', count('in-sitemap')],
        ['notInSitemap', count('not-in-sitemap')],
      ],
      cases: entries.map((entry) => [inclusionCase(entry)]),
    },
  ];
}

function inclusionCase(entry: PageInclusionEvent): string {
  return [
    `    <testcase classname="page-inclusion.${inclusionReason(entry)}" name="${xmlAttribute(entry.page)}" time="0">`,
    `      <system-out>${xmlText(inclusionMessage(entry))}</system-out>`,
    '    </testcase>',
  ].join('\n');
}
