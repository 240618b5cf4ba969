import {
  okWarningRuleId,
  okWarningWords,
  openWebRules,
  unverifiedReasons,
  unverifiedRuleId,
} from './open-web.js';
import { createHash } from 'node:crypto';
import {
  failureReasons,
  ruleCategoryLabel,
  RuleCategory,
  ScanStatus,
  suggestionLine,
  type Suggestion,
  type FailureReason,
} from '@linkaudit/core';
import type { CertificateEvent } from '@linkaudit/engine';
import {
  anchorName,
  certificateProblems,
  describeAnswer,
  displayUrl,
  hostUrl,
  reasonSlug,
  statusName,
  notCheckedCauses,
  notCheckedTitles,
  type LinkSource,
  type NotCheckedCause,
  type RuleReport,
  type ScanReport,
} from '../report.js';
import type { RuleInfo } from '../rules.js';
import type { FormatOptions, Formatter } from './format.js';
import { oneString } from './format.js';
import { jsonPieces, streamed } from './json-pieces.js';

const reasonDescriptions: Record<FailureReason, string> = {
  'Time Out': 'The target did not answer in time.',
  'Invalid Remote Name': 'The host name of the target does not resolve (DNS).',
  'Invalid Certificate':
    'The TLS certificate of the target is invalid: expired, not yet valid, self-signed, for another host or untrusted.',
  'Authentication Required': 'The target asks for authentication (401, 403 or 407).',
  'Source Attribute Missing': 'A link, image or iframe has a missing or empty address attribute.',
  'Not Found': 'The target does not exist (404 or 410).',
  'Engine Exception': 'LinkAudit could not check the target because of an error of its own.',
  'Invalid Format': 'The address of the target is not a valid URL.',
  'Service Unavailable':
    'The target is unavailable: 502, 503 or 504 (after retries), or a refused or reset connection.',
  'Internal Server Error': 'The target answered with a server error (500 or another 5xx).',
  'Bad Request': 'The target answered with a client error (400 or another 4xx).',
};

const unverifiedRule = {
  id: 'unverified-link/bot-protection',
  name: 'UnverifiedLink',
  shortDescription: { text: 'Link could not be verified' },
  fullDescription: {
    text: 'The server refuses automated requests (bot protection), so the link could not be checked; check it in a browser.',
  },
  defaultConfiguration: { level: 'warning' },
};

/** The rules of issue 4, after the link rules so the older rule indexes stay what they were. */
const pageRules = [
  {
    id: 'broken-anchor',
    name: 'BrokenAnchor',
    shortDescription: { text: 'Link to a missing anchor' },
    fullDescription: {
      text: 'The #fragment of the link names no element of the target page (no id and no <a name>), so the browser does not scroll to it.',
    },
    defaultConfiguration: { level: 'error' },
  },
  {
    id: 'duplicate-anchor',
    name: 'DuplicateAnchor',
    shortDescription: { text: 'Duplicate anchor' },
    fullDescription: {
      text: 'The same id (or <a name>) is defined more than once on the page; links to it reach only the first.',
    },
    defaultConfiguration: { level: 'warning' },
  },
  {
    id: 'invalid-certificate',
    name: 'InvalidCertificate',
    shortDescription: { text: 'Invalid TLS certificate' },
    fullDescription: {
      text: 'The TLS certificate of the host is expired, not yet valid, self-signed, untrusted or for another host name.',
    },
    defaultConfiguration: { level: 'error' },
  },
  {
    id: 'certificate-expires-soon',
    name: 'CertificateExpiresSoon',
    shortDescription: { text: 'TLS certificate expires soon' },
    fullDescription: {
      text: 'The TLS certificate of the host is valid but expires within 30 days.',
    },
    defaultConfiguration: { level: 'warning' },
  },
];

/** Links not checked on purpose, a note each (added last, so the older indexes stay). */
const notCheckedRuleTexts: Record<NotCheckedCause, { name: string; text: string }> = {
  'crawler-trap': {
    name: 'NotCheckedCrawlerTrap',
    text: 'The link leads into a crawler trap (a path that repeats itself, an ever-growing query string, a calendar far ahead): it was not followed, so the crawl ends.',
  },
  'link-cap': {
    name: 'NotCheckedLinkCap',
    text: 'The page has more links than the scan reads per page; the links past the cap were not read or checked.',
  },
  limit: {
    name: 'NotCheckedScanLimit',
    text: 'The scan stopped at a limit (links, errors or time) before it reached this link, which was not checked.',
  },
};
export const notCheckedRules = notCheckedCauses.map((cause) => ({
  id: notCheckedRuleId(cause),
  name: notCheckedRuleTexts[cause].name,
  shortDescription: { text: `Not checked: ${notCheckedTitles[cause]}` },
  fullDescription: { text: notCheckedRuleTexts[cause].text },
  defaultConfiguration: { level: 'note' },
}));

export function notCheckedRuleId(cause: string): string {
  return `not-checked/${cause}`;
}

/** With --page-inclusion, a sitemap's orphans (added last, so the older indexes stay). */
const orphanPageRule = {
  id: 'orphan-page',
  name: 'OrphanPage',
  shortDescription: { text: 'Orphan page' },
  fullDescription: {
    text: 'The sitemap lists the page but no crawled page links to it: visitors cannot reach it by following links.',
  },
  defaultConfiguration: { level: 'warning' },
};

/** Every rule the tool has, in a fixed order so rule indexes are stable between runs. */
const rules = [
  ...failureReasons.map((reason) => ({
    id: brokenRuleId(reason),
    name: reason.replaceAll(' ', ''),
    shortDescription: { text: `Broken link: ${reason}` },
    fullDescription: { text: reasonDescriptions[reason] },
    defaultConfiguration: { level: 'error' },
  })),
  unverifiedRule,
  ...pageRules,
  ...notCheckedRules,
  orphanPageRule,
  ...openWebRules,
];
const ruleIndexes = new Map(rules.map((rule, index) => [rule.id, index]));

/**
 * SARIF 2.1.0 for code-scanning dashboards: one result per broken or unverified link occurrence
 * (and a note per kept occurrence of a link not checked on purpose),
 * per link to a missing #fragment and per duplicate anchor (located on their page), and per host
 * whose certificate is invalid or expires soon (located at the host's address). The results (one
 * per occurrence: most of a large site's report) are made and written one at a time.
 */
export const sarifReport: Formatter = (report, options) => sarifPieces(report, options);

export const formatSarif = oneString(sarifReport);

function* sarifPieces(report: ScanReport, options: FormatOptions): Generator<string> {
  const { done } = report;
  const quality = qualityRules(report.rules);
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'linkaudit',
            version: options.version,
            rules: [...rules, ...quality.rules],
          },
        },
        invocations: [invocation(report)],
        properties: {
          startUrl: done.summary.startUrl,
          status: statusName(done.status),
          stoppedBy: done.stoppedBy,
          brokenAnchors: done.summary.brokenAnchors,
          duplicateAnchors: done.summary.duplicateAnchors,
          fattestPages: done.summary.fattestPages,
          certificateProblems: done.summary.certificateProblems,
          ...(report.rules ? { qualityRules: report.rules.summary ?? null } : {}),
        },
        results: streamed(fingerprinted(results(report, quality.results)), (result) => result),
      },
    ],
  };
  yield* jsonPieces(sarif);
  yield '\n';
}

function* results(report: ScanReport, qualityResults: Iterable<object>): Generator<object> {
  for (const { url, check, referenceCount, sources, suggestion } of report.broken) {
    const text = `Broken link to ${displayUrl(url)}: ${check.reason} (${describeAnswer(check.statusCode, check.message)}).${fixSentence(suggestion)}`;
    const properties = { url, statusCode: check.statusCode, referenceCount, ...fixOf(suggestion) };
    for (const source of sources) {
      yield result(brokenRuleId(check.reason), 'error', text, source, properties);
    }
  }
  for (const { url, check, referenceCount, sources } of report.unverified) {
    const text = `Could not verify the link to ${url}: ${unverifiedReasons[check.cause]} (${describeAnswer(check.statusCode, check.message)}).`;
    const properties = { url, statusCode: check.statusCode, cause: check.cause, referenceCount };
    for (const source of sources)
      yield result(unverifiedRuleId(check.cause), 'warning', text, source, properties);
  }
  for (const { url, check, referenceCount, sources } of report.warnings) {
    const text = `The link to ${displayUrl(url)} works but looks like a ${okWarningWords[check.warning]} (it ends at ${displayUrl(check.finalUrl)}).`;
    const properties = {
      url,
      statusCode: check.statusCode,
      finalUrl: check.finalUrl,
      referenceCount,
    };
    for (const source of sources)
      yield result(okWarningRuleId(check.warning), 'warning', text, source, properties);
  }
  for (const { url, check, referenceCount, sources } of report.notChecked) {
    const text = `Not checked: ${displayUrl(url)}. ${check.message}.`;
    const properties = { url, cause: check.cause, referenceCount };
    for (const source of sources) {
      yield result(notCheckedRuleId(check.cause), 'note', text, source, properties);
    }
  }
  for (const { url, page, fragment, referenceCount, sources, suggestion } of report.brokenAnchors) {
    const text = `Broken anchor ${url}: the page has no element with id or name "${anchorName(fragment)}".${fixSentence(suggestion)}`;
    const properties = { url, page, fragment, referenceCount, ...fixOf(suggestion) };
    for (const source of sources) yield result('broken-anchor', 'error', text, source, properties);
  }
  for (const { page, name, first, duplicate } of report.duplicateAnchors) {
    yield {
      ruleId: 'duplicate-anchor',
      ruleIndex: ruleIndexes.get('duplicate-anchor'),
      level: 'warning',
      message: {
        text: `The anchor "${name}" is defined again here; it was first defined at ${first.line}:${first.column}.`,
      },
      locations: [pageLocation(page, duplicate)],
      relatedLocations: [
        { id: 1, ...pageLocation(page, first), message: { text: `first definition of "${name}"` } },
      ],
      properties: { page, name },
    };
  }
  for (const { page, statusCode, orphan } of report.pageInclusion ?? []) {
    if (!orphan) continue;
    yield {
      ruleId: orphanPageRule.id,
      ruleIndex: ruleIndexes.get(orphanPageRule.id),
      level: 'warning',
      message: { text: `Orphan page ${page}: listed in the sitemap, linked from no crawled page.` },
      locations: [{ physicalLocation: { artifactLocation: { uri: page } } }],
      properties: { page, statusCode: statusCode ?? null },
    };
  }
  yield* certificateResults(report);
  yield* qualityResults;
}

/**
 * With --rules, the selected rules after the fixed ones (their indexes follow the selection) and a
 * result per violation: a warning, or a note for spelling, located on its page with the snippet.
 */
function qualityRules(report: RuleReport | undefined): {
  rules: object[];
  results: Iterable<object>;
} {
  if (!report) return { rules: [], results: [] };
  const infos = new Map(report.results.map(({ rule }, index) => [rule.id, { rule, index }]));
  return {
    rules: report.results.map(({ rule }) => qualityRule(rule)),
    results: mapped(report.violations, ({ ruleId, url, line, column, snippet, message }) => {
      const entry = infos.get(ruleId);
      const rule = entry?.rule;
      const name = rule?.name ?? `Rule ${ruleId}`;
      const where = region({ line, column });
      return {
        ruleId: rule ? qualityRuleId(rule) : `rule/${ruleId}`,
        ruleIndex: entry ? rules.length + entry.index : undefined,
        level: qualityLevel(rule?.categoryID ?? 0),
        message: { text: message ? `${name}: ${message}` : name },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: url },
              ...(where ? { region: { ...where, snippet: { text: snippet } } } : {}),
            },
          },
        ],
        properties: { linkAuditorRuleID: ruleId },
      };
    }),
  };
}

/** Each item made into another as it is read. */
function* mapped<T, U>(items: Iterable<T>, map: (item: T) => U): Generator<U> {
  for (const item of items) yield map(item);
}

/** The catalogue's readable id (`seo/title-missing`); `rule/<id>` when it has none. */
function qualityRuleId(rule: RuleInfo): string {
  return rule.slug;
}

function qualityLevel(categoryID: number): 'warning' | 'note' {
  return categoryID === RuleCategory.Spellcheck ? 'note' : 'warning';
}

function qualityRule(rule: RuleInfo): object {
  const last = rule.slug.split('/').at(-1) ?? '';
  const name = last
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
  return {
    id: qualityRuleId(rule),
    name: /^[A-Za-z]/.test(name) ? name : `Rule${rule.id}`,
    shortDescription: { text: rule.name },
    fullDescription: { text: rule.note || rule.name },
    ...(rule.prompt ? { help: { text: rule.prompt } } : {}),
    helpUri: rule.helpUrl,
    defaultConfiguration: { level: qualityLevel(rule.categoryID) },
    properties: {
      category: ruleCategoryLabel(rule.categoryID),
      categoryID: rule.categoryID,
      linkAuditorRuleID: rule.id,
      tags: ['quality', ruleCategoryLabel(rule.categoryID)],
    },
  };
}

/**
 * Each result with `partialFingerprints` that stay the same from run to run (issue 27), so code
 * scanning dashboards track a problem across scans: the rule, where it is (page address, not line
 * or column, which move when a page is edited), what it is about (target URL, host, anchor name,
 * rule snippet), and which repeat of those it is on the page (results come in a stable order).
 */
function* fingerprinted(items: Iterable<object>): Generator<object> {
  const seen = new Map<string, number>();
  for (const item of items) {
    const identity = resultIdentity(item);
    const repeat = (seen.get(identity) ?? 0) + 1;
    seen.set(identity, repeat);
    const digest = createHash('sha256').update(`${identity}\u0000${repeat}`).digest('hex');
    yield { ...item, partialFingerprints: { [fingerprintKey]: digest.slice(0, 32) } };
  }
}

export const fingerprintKey = 'linkaudit/v1';

interface SarifResultShape {
  ruleId?: string;
  locations?: Array<{
    physicalLocation?: {
      artifactLocation?: { uri?: string };
      region?: { snippet?: { text?: string } };
    };
  }>;
  properties?: { url?: string; host?: string; name?: string; page?: string };
}

function resultIdentity(result: SarifResultShape): string {
  const location = result.locations?.[0]?.physicalLocation;
  const about = result.properties?.url ?? result.properties?.host ?? result.properties?.name ?? '';
  return [
    result.ruleId ?? '',
    location?.artifactLocation?.uri ?? result.properties?.page ?? '',
    about,
    location?.region?.snippet?.text ?? '',
  ].join('\u0000');
}

/** The suggested fix (issue 27) read out at the end of a result's message. */
function fixSentence(suggestion: Suggestion | undefined): string {
  return suggestion ? ` Suggested fix: ${suggestionLine(suggestion)}` : '';
}

function fixOf(suggestion: Suggestion | undefined): { suggestion?: Suggestion } {
  return suggestion ? { suggestion } : {};
}

function brokenRuleId(reason: FailureReason): string {
  return `broken-link/${reasonSlug(reason)}`;
}

function result(
  ruleId: string,
  level: 'error' | 'warning' | 'note',
  text: string,
  source: LinkSource,
  properties: Record<string, unknown>,
): object {
  return {
    ruleId,
    ruleIndex: ruleIndexes.get(ruleId),
    level,
    message: { text },
    locations: [
      {
        physicalLocation: { artifactLocation: { uri: source.url }, region: region(source) },
        message: { text: `${source.element} ${source.attribute}` },
      },
    ],
    properties,
  };
}

/** A position on a page, for results that are not about one link. */
function pageLocation(page: string, position: { line: number; column: number }): object {
  return {
    physicalLocation: { artifactLocation: { uri: page }, region: region(position) },
  };
}

function region(position: { line: number; column: number }): object | undefined {
  // SARIF lines and columns start at 1; a position we do not know is left out rather than made up.
  if (position.line < 1) return undefined;
  return {
    startLine: position.line,
    ...(position.column >= 1 ? { startColumn: position.column } : {}),
  };
}

function certificateResults(report: ScanReport): object[] {
  const { invalid, expiring } = certificateProblems(report);
  const certificateResult = (
    ruleId: string,
    level: 'error' | 'warning',
    text: string,
    certificate: CertificateEvent,
  ) => ({
    ruleId,
    ruleIndex: ruleIndexes.get(ruleId),
    level,
    message: { text },
    locations: [{ physicalLocation: { artifactLocation: { uri: hostUrl(certificate.host) } } }],
    properties: {
      host: certificate.host,
      problem: certificate.problem,
      errorCode: certificate.errorCode,
      validTo: certificate.validTo,
      daysLeft: certificate.daysLeft,
    },
  });
  return [
    ...invalid.map((certificate) =>
      certificateResult(
        'invalid-certificate',
        'error',
        `Invalid TLS certificate for ${certificate.host} (${certificate.problem ?? 'other'}): ${certificate.message}.`,
        certificate,
      ),
    ),
    ...expiring.map((certificate) =>
      certificateResult(
        'certificate-expires-soon',
        'warning',
        `The TLS certificate of ${certificate.host} expires soon: ${certificate.message}.`,
        certificate,
      ),
    ),
  ];
}

function invocation(report: ScanReport): object {
  const { done } = report;
  if (done.status !== ScanStatus.Failed) return { executionSuccessful: true };
  const text = done.error ?? 'The scan failed.';
  return {
    executionSuccessful: false,
    toolExecutionNotifications: [{ level: 'error', message: { text } }],
  };
}
