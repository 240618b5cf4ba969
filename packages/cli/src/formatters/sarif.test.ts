import { failureReasons } from '@linkaudit/core';
import { describe, expect, it } from 'vitest';
import { failedReport, shopReport } from '../test-support/reports.js';
import { formatSarif } from './sarif.js';

const options = { color: false, version: '1.2.3' };

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: {
    physicalLocation: {
      artifactLocation: { uri: string };
      region?: { startLine: number; startColumn?: number };
    };
  }[];
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
    ]);
    expect(rules).toHaveLength(failureReasons.length + 1);
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
});
