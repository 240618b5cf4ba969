// External hosts: a host that does not resolve is looked up once per scan (not once per link) and
// all its links are reported with the DNS reason; the address policy still sees every connection;
// no external host gets more concurrent requests than its cap, however many links wait for it.
import { setTimeout as sleep } from 'node:timers/promises';
import type { LookupFunction } from 'node:net';
import { FailureReason, ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  brokenSummary,
  collectScan,
  createLookup,
  htmlPage,
  startTestSite,
  type RouteHandler,
  type TestSite,
} from '../test-support/index.js';

const names = ['site.test', 'other.test', 'busy.test'];
let site: TestSite;
let other: TestSite;
let otherAgain: TestSite;
let busy: TestSite;
let inFlight = 0;
let mostInFlight = 0;

const busyHandler: RouteHandler = async (_request, response) => {
  inFlight++;
  mostInFlight = Math.max(mostInFlight, inFlight);
  await sleep(30);
  inFlight--;
  response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
};

/** Counts the lookups of each name; `dead.test` stalls a little, then fails as DNS would. */
function countingLookup() {
  const base = createLookup(names);
  const counts = new Map<string, number>();
  const lookup = ((hostname: string, options: object, callback: never) => {
    counts.set(hostname, (counts.get(hostname) ?? 0) + 1);
    const delay = hostname === 'dead.test' ? 200 : 0;
    setTimeout(() => base(hostname, options, callback), delay);
  }) as unknown as LookupFunction;
  return { lookup, count: (hostname: string) => counts.get(hostname) ?? 0 };
}

const deadLinks = Array.from({ length: 40 }, (_, i) => `http://dead.test/page-${i}.html`);
const deadImages = Array.from({ length: 10 }, (_, i) => `http://dead.test:8080/img-${i}.png`);

beforeAll(async () => {
  busy = await startTestSite({}, { host: 'busy.test', fallback: { handler: busyHandler } });
  other = await startTestSite({}, { host: 'other.test', fallback: 'ok' });
  otherAgain = await startTestSite({}, { host: 'other.test', fallback: 'ok' });
  site = await startTestSite(
    {
      '/dead': htmlPage(
        [
          ...deadLinks.map((url) => `<a href="${url}">x</a>`),
          ...deadImages.map((url) => `<img src="${url}" alt="">`),
        ].join('\n'),
      ),
      '/two-origins': htmlPage(
        [other.url('/a'), other.url('/b'), otherAgain.url('/c'), otherAgain.url('/d')]
          .map((url) => `<a href="${url}">x</a>`)
          .join('\n'),
      ),
      '/busy': htmlPage(
        Array.from({ length: 24 }, (_, i) => `<a href="${busy.url(`/p${i}`)}">x</a>`).join('\n'),
      ),
    },
    { host: 'site.test' },
  );
});
afterAll(async () => {
  await Promise.all([site, other, otherAgain, busy].map((s) => s.close()));
});

describe('external hosts', () => {
  it('looks a dead host up once and reports every link to it as Invalid Remote Name', async () => {
    const { lookup, count } = countingLookup();
    const { links, done } = await collectScan(
      { url: site.url('/dead'), scanDepth: 1, maxThreadCount: 20 },
      { lookup },
    );
    expect(done.status).toBe(ScanStatus.Complete);
    expect(brokenSummary(links)).toEqual(
      [...deadLinks, ...deadImages].sort().map((url) => ({
        url,
        reason: FailureReason.InvalidRemoteName,
        statusCode: undefined,
        referenceCount: 1,
      })),
    );
    // (each of the 50 links used to look the name up again: 50 stalls)
    expect(count('dead.test')).toBe(1);
  });

  it('still puts every connection to a cached name through the address policy', async () => {
    const { lookup, count } = countingLookup();
    const checked: string[] = [];
    const { links } = await collectScan(
      { url: site.url('/two-origins'), scanDepth: 1 },
      {
        lookup,
        addressPolicy: (_address, hostname) => {
          checked.push(hostname);
          return true;
        },
      },
    );
    expect(links.every((link) => link.check.state === 'ok')).toBe(true);
    expect(count('other.test')).toBe(1);
    // Two origins of one name: at least one connection each, each one checked.
    expect(checked.filter((hostname) => hostname === 'other.test').length).toBeGreaterThanOrEqual(
      2,
    );
    expect(other.requests.length + otherAgain.requests.length).toBe(4);
  });

  it('never sends an external host more concurrent requests than its cap', async () => {
    mostInFlight = 0;
    const { links } = await collectScan(
      { url: site.url('/busy'), scanDepth: 1, maxThreadCount: 20 },
      { lookup: createLookup(names), perHostConcurrency: 3 },
    );
    expect(links.filter((link) => link.check.state === 'ok')).toHaveLength(24);
    expect(busy.requests).toHaveLength(24);
    expect(mostInFlight).toBe(3);
  });
});
