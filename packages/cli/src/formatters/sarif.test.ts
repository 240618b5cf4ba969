import { failureReasons } from '@linkaudit/core';
import { describe, expect, it } from 'vitest';
import { auditReport, failedReport, rulesReport, shopReport } from '../test-support/reports.js';
import { formatSarif } from './sarif.js';

const options = { color: false, version: '1.2.3' };

interface SarifLocation {
  physicalLocation: {
    artifactLocation: { uri: string };
    region?: { startLine: number; startColumn?: number };
  };
  message?: { text: string };
}

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: SarifLocation[];
  relatedLocations?: (SarifLocation & { id: number })[];
  properties: Record<string, unknown>;
}

/** A result as the tests spell it out: its fingerprint is tested on its own (fingerprints.test.ts). */
function withoutFingerprints<T>(value: T): T {
  const strip = (item: unknown) => {
    const { partialFingerprints: _fingerprint, ...rest } = item as Record<string, unknown>;
    return rest;
  };
  return (Array.isArray(value) ? value.map(strip) : strip(value)) as T;
}

describe('the SARIF report', () => {
  const sarif = JSON.parse(formatSarif(shopReport, options));
  const run = sarif.runs[0];
  const results = run.results as SarifResult[];

  it('is SARIF 2.1.0 from the linkaudit driver with one rule per failure reason', () => {
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.$schema).toBe('https://json.schemastore.org/sarif-2.1.0.json');
    expect(sarif.runs).toHaveLength(1);
    expect(run.tool.driver.name).toBe('linkaudit');
    expect(run.tool.driver.version).toBe('1.2.3');
    const rules = run.tool.driver.rules as {
      id: string;
      name: string;
      shortDescription: { text: string };
    }[];
    expect(rules.map((rule) => rule.id)).toEqual([
      'broken-link/time-out',
      'broken-link/invalid-remote-name',
      'broken-link/invalid-certificate',
      'broken-link/authentication-required',
      'broken-link/source-attribute-missing',
      'broken-link/not-found',
      'broken-link/engine-exception',
      'broken-link/invalid-format',
      'broken-link/service-unavailable',
      'broken-link/internal-server-error',
      'broken-link/bad-request',
      'unverified-link/bot-protection',
      'broken-anchor',
      'duplicate-anchor',
      'invalid-certificate',
      'certificate-expires-soon',
      'not-checked/crawler-trap',
      'not-checked/link-cap',
      'not-checked/limit',
      'orphan-page',
      'unverified-link/rate-limited',
      'unverified-link/needs-sign-in',
      'unverified-link/host-too-slow',
      'link-warning/soft-404',
      'link-warning/login-wall',
    ]);
    expect(rules).toHaveLength(failureReasons.length + 14);
    expect(rules[5]).toMatchObject({
      name: 'NotFound',
      shortDescription: { text: 'Broken link: Not Found' },
      defaultConfiguration: { level: 'error' },
    });
    for (const rule of rules) expect(rule.shortDescription.text).not.toBe('');
    expect(run.invocations).toEqual([{ executionSuccessful: true }]);
  });

  it('has one result per occurrence, located on the page that holds the link', () => {
    expect(results).toHaveLength(8);
    const rules = run.tool.driver.rules as { id: string }[];
    for (const result of results) expect(rules[result.ruleIndex]!.id).toBe(result.ruleId);
    const oldPage = results.filter((result) => result.message.text.includes('/old-page'));
    expect(oldPage).toEqual([
      expect.objectContaining({
        ruleId: 'broken-link/not-found',
        level: 'error',
        message: {
          text: 'Broken link to https://shop.example.com/old-page: Not Found (404 Not Found).',
        },
        locations: [
          expect.objectContaining({
            physicalLocation: {
              artifactLocation: { uri: 'https://shop.example.com/' },
              region: { startLine: 12, startColumn: 7 },
            },
          }),
        ],
      }),
      expect.objectContaining({
        locations: [
          expect.objectContaining({
            physicalLocation: {
              artifactLocation: { uri: 'https://shop.example.com/about' },
              region: { startLine: 5, startColumn: 1 },
            },
          }),
        ],
      }),
    ]);
  });

  it('warns about links that could not be verified', () => {
    const unverified = results.filter((result) => result.level === 'warning');
    expect(unverified).toHaveLength(1);
    expect(unverified[0]).toMatchObject({
      ruleId: 'unverified-link/bot-protection',
      message: {
        text: 'Could not verify the link to https://www.linkedin.com/company/shop: the server refuses automated requests (999 Request denied).',
      },
    });
    expect(results.filter((result) => result.level === 'error')).toHaveLength(7);
  });

  it('marks a failed scan as an unsuccessful invocation with its error', () => {
    const failed = JSON.parse(formatSarif(failedReport, options)).runs[0];
    expect(failed.results).toEqual([]);
    expect(failed.invocations).toEqual([
      {
        executionSuccessful: false,
        toolExecutionNotifications: [
          {
            level: 'error',
            message: {
              text: 'The start page could not be fetched: connect ECONNREFUSED 127.0.0.1:9',
            },
          },
        ],
      },
    ]);
  });

  describe('of anchors and certificates', () => {
    const auditRun = JSON.parse(formatSarif(auditReport, options)).runs[0];
    const auditResults = auditRun.results as SarifResult[];
    const rules = auditRun.tool.driver.rules as { id: string; defaultConfiguration: object }[];

    it('has a result per broken-anchor occurrence, duplicate anchor and certificate problem', () => {
      expect(auditResults.map((result) => [result.ruleId, result.level])).toEqual([
        ['broken-anchor', 'error'],
        ['broken-anchor', 'error'],
        ['broken-anchor', 'error'],
        ['duplicate-anchor', 'warning'],
        ['duplicate-anchor', 'warning'],
        // With --page-inclusion: the sitemap's page no crawled page links to.
        ['orphan-page', 'warning'],
        ['invalid-certificate', 'error'],
        ['certificate-expires-soon', 'warning'],
      ]);
      for (const result of auditResults) expect(rules[result.ruleIndex]!.id).toBe(result.ruleId);
      expect(rules.slice(-13).map((rule) => rule.defaultConfiguration)).toEqual([
        { level: 'error' },
        { level: 'warning' },
        { level: 'error' },
        { level: 'warning' },
        { level: 'note' },
        { level: 'note' },
        { level: 'note' },
        { level: 'warning' },
        // Issue 35: unverified links' other causes and working links' warnings.
        ...Array.from({ length: 5 }, () => ({ level: 'warning' })),
      ]);
      expect(auditRun.properties).toEqual({
        startUrl: 'https://shop.example.com/',
        status: 'Complete',
        brokenAnchors: 3,
        duplicateAnchors: 2,
        fattestPages: 2,
        certificateProblems: 2,
      });
    });

    it('locates a broken anchor at the link that uses it', () => {
      expect(withoutFingerprints(auditResults[2])).toEqual({
        ruleId: 'broken-anchor',
        ruleIndex: 12,
        level: 'error',
        message: {
          text: 'Broken anchor https://shop.example.com/about#team: the page has no element with id or name "team".',
        },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: 'https://shop.example.com/blog' },
              region: { startLine: 3, startColumn: 1 },
            },
            message: { text: 'a href' },
          },
        ],
        properties: {
          url: 'https://shop.example.com/about#team',
          page: 'https://shop.example.com/about',
          fragment: '#team',
          referenceCount: 2,
        },
      });
    });

    it('locates a duplicate anchor at its repeat, with the first one related', () => {
      expect(withoutFingerprints(auditResults[4])).toEqual({
        ruleId: 'duplicate-anchor',
        ruleIndex: 13,
        level: 'warning',
        message: { text: 'The anchor "main" is defined again here; it was first defined at 12:3.' },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: 'https://shop.example.com/about' },
              region: { startLine: 40, startColumn: 3 },
            },
          },
        ],
        relatedLocations: [
          {
            id: 1,
            physicalLocation: {
              artifactLocation: { uri: 'https://shop.example.com/about' },
              region: { startLine: 12, startColumn: 3 },
            },
            message: { text: 'first definition of "main"' },
          },
        ],
        properties: { page: 'https://shop.example.com/about', name: 'main' },
      });
    });

    it('locates a certificate problem at the address of its host', () => {
      expect(withoutFingerprints(auditResults.slice(6))).toEqual([
        {
          ruleId: 'invalid-certificate',
          ruleIndex: 14,
          level: 'error',
          message: {
            text: 'Invalid TLS certificate for old.example.org (expired): The certificate has expired.',
          },
          locations: [
            { physicalLocation: { artifactLocation: { uri: 'https://old.example.org/' } } },
          ],
          properties: {
            host: 'old.example.org',
            problem: 'expired',
            errorCode: 'CERT_HAS_EXPIRED',
            validTo: '2024-01-31T23:59:59.000Z',
            daysLeft: -497,
          },
        },
        {
          ruleId: 'certificate-expires-soon',
          ruleIndex: 15,
          level: 'warning',
          message: {
            text: 'The TLS certificate of cdn.example.net expires soon: The certificate expires in 10 days (2025-06-21).',
          },
          locations: [
            { physicalLocation: { artifactLocation: { uri: 'https://cdn.example.net/' } } },
          ],
          properties: {
            host: 'cdn.example.net',
            validTo: '2025-06-21T12:00:00.000Z',
            daysLeft: 10,
          },
        },
      ]);
    });
  });
});

describe('the quality rules in the SARIF report', () => {
  const run = JSON.parse(formatSarif(rulesReport, options)).runs[0];
  const rules = run.tool.driver.rules as { id: string }[];
  const fixed = JSON.parse(formatSarif(shopReport, options)).runs[0].tool.driver.rules as object[];
  const results = run.results as (SarifResult & {
    locations: { physicalLocation: { region: { snippet: { text: string } } } }[];
  })[];

  it('lists each selected rule after the fixed ones, which keep their indexes', () => {
    expect(rules.slice(0, fixed.length)).toEqual(fixed);
    expect(rules.slice(fixed.length).map((rule) => rule.id)).toEqual([
      'spelling/misspelt-word',
      'seo/title-missing',
      'seo/h1-multiple',
      'seo/image-alt-missing',
    ]);
    expect(rules[fixed.length + 1]).toEqual({
      id: 'seo/title-missing',
      name: 'TitleMissing',
      shortDescription: { text: 'Title missing' },
      fullDescription: { text: 'The page has no <title>, or an empty one.' },
      help: { text: 'Give every page a unique, descriptive <title> in its <head>.' },
      helpUri: 'https://linkaudit.dev/rules/4001',
      defaultConfiguration: { level: 'warning' },
      properties: {
        category: 'SEO',
        categoryID: 4,
        linkAuditorRuleID: 4001,
        tags: ['quality', 'SEO'],
      },
    });
    expect(rules[fixed.length]).toMatchObject({ defaultConfiguration: { level: 'note' } });
  });

  it('has a result per violation, located on its page with the snippet', () => {
    expect(results).toHaveLength(15);
    expect(withoutFingerprints(results[1])).toEqual({
      ruleId: 'seo/title-missing',
      ruleIndex: fixed.length + 1,
      level: 'warning',
      message: { text: 'Title missing: No <title> element' },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'https://shop.example.com/about' },
            region: { startLine: 3, startColumn: 1, snippet: { text: '<head>' } },
          },
        },
      ],
      properties: { linkAuditorRuleID: 4001 },
    });
    // Spelling is a note; a violation without a message says the rule's name.
    expect(results[2]).toMatchObject({
      ruleId: 'spelling/misspelt-word',
      ruleIndex: fixed.length,
      level: 'note',
      message: { text: 'Misspelt word' },
    });
    expect(results[2]!.locations[0]!.physicalLocation.region.snippet.text).toBe(
      '=SUM(A1) teh\n\tbest',
    );
    for (const result of results) {
      expect(rules[result.ruleIndex]).toMatchObject({ id: result.ruleId });
    }
  });

  it('carries the tally as a run property', () => {
    expect(run.properties.qualityRules).toEqual(rulesReport.done.summary.rules);
    expect(JSON.parse(formatSarif(shopReport, options)).runs[0].properties.qualityRules).toBe(
      undefined,
    );
  });
});
