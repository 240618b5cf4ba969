// The findings site (test-support/findings-site.ts) scanned by the engine: every finding of its
// ground truth is reported and nothing else is: broken anchors (case, ids inside a template,
// script text or a comment, a name on an input), the anchors that must be found (bare #, #top,
// a[name], percent-encoded), duplicate ids with both places, page inclusion and the rule findings.
// The server and browser tests read the same site through the report.
import { ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectScan,
  eventsOfType,
  findingsGroundTruth as truth,
  findingsScanSettings,
  findingsSitemap,
  findingsSitePages,
  startTestSite,
  type CollectedScan,
  type TestSite,
} from '../test-support/index.js';

let site: TestSite;
let scan: CollectedScan;

beforeAll(async () => {
  site = await startTestSite({
    ...findingsSitePages(),
    '/sitemap.xml': {
      handler: (request, response) => {
        response.writeHead(200, { 'content-type': 'application/xml' });
        response.end(findingsSitemap(`http://${request.headers.host ?? ''}`));
      },
    },
  });
  scan = await collectScan({
    url: site.url('/'),
    ...findingsScanSettings,
    selectedRules: [...findingsScanSettings.selectedRules],
  });
});
afterAll(async () => site.close());

const path = (url: string) => new URL(url).pathname + new URL(url).hash;

describe('the findings site', () => {
  it('reports exactly the broken anchors of its ground truth, and finds the others', () => {
    expect(scan.done.status).toBe(ScanStatus.Complete);
    const missing = scan.links
      .filter((link) => link.anchor?.state === 'missing')
      .map((link) => [path(link.source), path(link.url + (link.anchor?.fragment ?? ''))]);
    expect(missing.sort()).toEqual(truth.brokenAnchors.map((pair) => [...pair]).sort());
    const found = scan.links
      .filter((link) => link.anchor?.state === 'found')
      .map((link) => path(link.target));
    expect(found.sort()).toEqual([...truth.foundAnchors].sort());
    // A bare # and #top are no anchors to check.
    const trivial = scan.links.filter(
      (link) => /#(top)?$/.test(link.target) || link.target.endsWith('/'),
    );
    expect(trivial.every((link) => link.anchor === undefined)).toBe(true);
    expect(scan.done.summary.brokenAnchors).toBe(truth.brokenAnchors.length);
  });

  it('reports the broken link, each duplicate id with both places, and nothing more', () => {
    const broken = scan.links
      .filter((link) => link.check.state === 'broken')
      .map((link) => [path(link.source), path(link.url)]);
    expect(broken).toEqual(truth.brokenLinks.map((pair) => [...pair]));
    expect(
      eventsOfType(scan.events, 'duplicate-anchor').map((event) => ({
        page: path(event.page),
        anchor: event.name,
        first: event.first,
        duplicate: event.duplicate,
      })),
    ).toEqual(truth.duplicateAnchors);
  });

  it('finds the orphan through the sitemap and counts every page’s incoming links', () => {
    const inclusion = Object.fromEntries(
      eventsOfType(scan.events, 'page-inclusion').map((event) => [
        path(event.page),
        {
          incomingLinks: event.inboundLinks,
          linkedFrom: event.inboundSources.map(path).sort(),
          inSitemap: event.inSitemap,
          orphan: event.orphan,
        },
      ]),
    );
    expect(inclusion).toEqual(truth.pages);
    const ranked = eventsOfType(scan.events, 'page-rank').map((event) => path(event.page));
    expect(ranked.sort()).toEqual(Object.keys(truth.pages).sort());
  });

  it('reports the rule findings of its ground truth', () => {
    const rules = eventsOfType(scan.events, 'rule').map((event) => ({
      page: path(event.url),
      ruleId: String(event.ruleId),
      ruleName: event.ruleName,
    }));
    expect(rules.sort((a, b) => a.page.localeCompare(b.page))).toEqual(truth.rules);
  });
});
