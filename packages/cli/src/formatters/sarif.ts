import { failureReasons, ScanStatus, type FailureReason } from '@linkaudit/core';
import {
  describeAnswer,
  displayUrl,
  reasonSlug,
  statusName,
  type LinkSource,
  type ScanReport,
} from '../report.js';
import type { Formatter } from './format.js';

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
    'The target is unavailable: 502, 503 or 504, 429 after retries, or a refused or reset connection.',
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
];
const ruleIndexes = new Map(rules.map((rule, index) => [rule.id, index]));

/** SARIF 2.1.0 for code-scanning dashboards: one result per broken or unverified occurrence. */
export const formatSarif: Formatter = (report, options) => {
  const { done } = report;
  const results = [
    ...report.broken.flatMap(({ url, check, referenceCount, sources }) => {
      const text = `Broken link to ${displayUrl(url)}: ${check.reason} (${describeAnswer(check.statusCode, check.message)}).`;
      const properties = { url, statusCode: check.statusCode, referenceCount };
      return sources.map((source) =>
        result(brokenRuleId(check.reason), 'error', text, source, properties),
      );
    }),
    ...report.unverified.flatMap(({ url, check, referenceCount, sources }) => {
      const text = `Could not verify the link to ${url}: the server refuses automated requests (${describeAnswer(check.statusCode, check.message)}).`;
      const properties = { url, statusCode: check.statusCode, referenceCount };
      return sources.map((source) =>
        result(unverifiedRule.id, 'warning', text, source, properties),
      );
    }),
  ];
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'linkaudit', version: options.version, rules } },
        invocations: [invocation(report)],
        properties: {
          startUrl: done.summary.startUrl,
          status: statusName(done.status),
          stoppedBy: done.stoppedBy,
        },
        results,
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
};

function brokenRuleId(reason: FailureReason): string {
  return `broken-link/${reasonSlug(reason)}`;
}

function result(
  ruleId: string,
  level: 'error' | 'warning',
  text: string,
  source: LinkSource,
  properties: Record<string, unknown>,
): object {
  // SARIF lines and columns start at 1; a position we do not know is left out rather than made up.
  const region =
    source.line >= 1
      ? { startLine: source.line, ...(source.column >= 1 ? { startColumn: source.column } : {}) }
      : undefined;
  return {
    ruleId,
    ruleIndex: ruleIndexes.get(ruleId),
    level,
    message: { text },
    locations: [
      {
        physicalLocation: { artifactLocation: { uri: source.url }, region },
        message: { text: `${source.element} ${source.attribute}` },
      },
    ],
    properties,
  };
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
