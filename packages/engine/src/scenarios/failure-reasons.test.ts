// Every way a link can break, mapped onto the failure reasons of SPEC §8 exactly as
// core/failure-reasons.ts says: the complete broken-links table of one page.
import { FailureReason, ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  brokenSummary,
  closedPort,
  collectScan,
  connectionReset,
  createLookup,
  htmlPage,
  startTestSite,
  statusOnly,
  type BrokenUrl,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test', 'refused.test']);
let site: TestSite;
let refusedUrl: string;

const statuses: [number, FailureReason][] = [
  [400, FailureReason.BadRequest],
  [403, FailureReason.AuthenticationRequired],
  [404, FailureReason.NotFound],
  [407, FailureReason.AuthenticationRequired],
  [410, FailureReason.NotFound],
  [418, FailureReason.BadRequest],
  [422, FailureReason.BadRequest],
  [500, FailureReason.InternalServerError],
  [501, FailureReason.InternalServerError],
  [502, FailureReason.ServiceUnavailable],
  [503, FailureReason.ServiceUnavailable],
  [504, FailureReason.ServiceUnavailable],
];

beforeAll(async () => {
  refusedUrl = `http://refused.test:${await closedPort()}/`;
  const routes = Object.fromEntries(
    statuses.map(([status]) => [`/status/${status}`, statusOnly(status, { 'retry-after': '0' })]),
  );
  site = await startTestSite(
    {
      ...routes,
      '/slow': { body: 'too late', delayMs: 20_000 },
      '/reset': connectionReset,
    },
    { host: 'site.test' },
  );
  site.routes['/'] = htmlPage(
    [
      ...statuses.map(([status]) => `<a href="/status/${status}">${status}</a>`),
      '<a href="/status/404#again">the same 404 again</a>',
      '<img src="/status/404" alt="and once more">',
      '<a href="/slow">slow</a>',
      '<a href="/reset">reset</a>',
      '<a href="http://nowhere.invalid/page.html">.invalid</a>',
      `<a href="http://unknown.test:${site.port}/">not in DNS</a>`,
      `<a href="${refusedUrl}">refused</a>`,
      '<img alt="no src">',
      '<a href="http://[bad">invalid</a>',
    ].join('\n'),
  );
});
afterAll(() => site.close());

describe('failure reasons', () => {
  it('maps every HTTP status and network failure onto its reason', async () => {
    const { links, done } = await collectScan(
      { url: site.url('/'), scanDepth: 1 },
      { lookup, retries: 1, retryBaseDelayMs: 10, requestTimeoutMs: 500 },
    );
    expect(done.status).toBe(ScanStatus.Complete);

    const expected: BrokenUrl[] = [
      ...statuses.map(([status, reason]) => ({
        url: site.url(`/status/${status}`),
        reason,
        statusCode: status,
        referenceCount: status === 404 ? 3 : 1,
      })),
      {
        url: site.url('/slow'),
        reason: FailureReason.TimeOut,
        statusCode: undefined,
        referenceCount: 1,
      },
      {
        url: site.url('/reset'),
        reason: FailureReason.ServiceUnavailable,
        statusCode: undefined,
        referenceCount: 1,
      },
      {
        url: 'http://nowhere.invalid/page.html',
        reason: FailureReason.InvalidRemoteName,
        statusCode: undefined,
        referenceCount: 1,
      },
      {
        url: `http://unknown.test:${site.port}/`,
        reason: FailureReason.InvalidRemoteName,
        statusCode: undefined,
        referenceCount: 1,
      },
      {
        url: refusedUrl,
        reason: FailureReason.ServiceUnavailable,
        statusCode: undefined,
        referenceCount: 1,
      },
      {
        url: '',
        reason: FailureReason.SourceAttributeMissing,
        statusCode: undefined,
        referenceCount: 1,
      },
      // An unparseable URL has no absolute form: it is reported as written.
      {
        url: 'http://[bad',
        reason: FailureReason.InvalidFormat,
        statusCode: undefined,
        referenceCount: 1,
      },
    ];
    expect(brokenSummary(links)).toEqual(expected.sort((a, b) => (a.url < b.url ? -1 : 1)));
    expect(done.summary.reasons).toEqual({
      [FailureReason.BadRequest]: 3,
      [FailureReason.AuthenticationRequired]: 2,
      [FailureReason.NotFound]: 2,
      [FailureReason.ServiceUnavailable]: 5,
      [FailureReason.InternalServerError]: 2,
      [FailureReason.TimeOut]: 1,
      [FailureReason.InvalidRemoteName]: 2,
      [FailureReason.SourceAttributeMissing]: 1,
      [FailureReason.InvalidFormat]: 1,
    });
  });
});
