// One corpus site as a test: serve its checked-in slice (with the site's faults) the way nginx
// would, derive the truth from the files (truth.mjs: parse5, WHATWG URLs, the HTML standard's
// fragment rules — nothing of the engine), scan it with the engine, and require the two to agree
// exactly: the pages read, every broken link with its reason and reference count, every broken
// fragment, every linked URL's outcome, and the summary's totals.
import { ScanStatus } from '@linkaudit/core';
import type { LinkEvent } from '@linkaudit/engine';
import {
  brokenSummary,
  collectScan,
  urlOutcomes,
  type CollectedScan,
} from '@linkaudit/engine/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesWithFaults, siteNamed } from './sites.mjs';
import { serveSite, type ServedSite } from './static-site.mjs';
import { deriveTruth, type Truth, type TruthMissingFragment } from './truth.mjs';

/**
 * The scan a user would start on the whole site, with fragments checked. The limits, far above
 * what the truth needs, only make a wrong engine (one that multiplies addresses) stop early
 * with Limit Reached instead of running out the test's time.
 */
function scanSettings(served: ServedSite, start: string, truth: Truth) {
  const origin = served.origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return {
    url: served.url(start),
    scanLimitOption: 1 as const,
    maxLinkAmount: 2 * truth.outcomes.length + 100,
    maxErrorCount: 2 * truth.broken.length + 100,
    scanDepth: 3 as const,
    maxDepth: 1000,
    checkAnchors: true,
    // The server is Linux and nginx: /Index.html and /index.html are two files.
    caseSensitive: true,
    // The network is closed: links to other hosts are reported as excluded, never fetched.
    excludeLinks: [{ link: `regex:^(?!${origin}/)` }],
  };
}

function missingFragments(links: readonly LinkEvent[]): TruthMissingFragment[] {
  const byKey = new Map<string, TruthMissingFragment>();
  for (const link of links) {
    if (link.anchor?.state !== 'missing') continue;
    const key = `${link.source}\n${link.url}\n${link.anchor.fragment}`;
    const entry = byKey.get(key);
    if (entry) entry.referenceCount++;
    else {
      const { source, url } = link;
      byKey.set(key, { source, url, fragment: link.anchor.fragment, referenceCount: 1 });
    }
  }
  const keyOf = (f: TruthMissingFragment) => `${f.source}\n${f.url}\n${f.fragment}`;
  return [...byKey.values()].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1));
}

function reasonTotals(truth: Truth): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const entry of truth.broken) totals[entry.reason] = (totals[entry.reason] ?? 0) + 1;
  return totals;
}

/** What a site's own test may check beyond the common ones, once the scan is done. */
export interface RealSiteScan {
  served: ServedSite;
  truth: Truth;
  scan: CollectedScan;
}

export function describeRealSite(name: string, more?: (get: () => RealSiteScan) => void): void {
  const site = siteNamed(name);
  describe(`${name}: ${site.generator}, from Debian's ${site.package}`, () => {
    let served: ServedSite;
    let truth: Truth;
    let scan: CollectedScan;

    beforeAll(async () => {
      const files = filesWithFaults(site);
      served = await serveSite(files);
      truth = deriveTruth(files, { origin: served.origin, start: site.start });
      scan = await collectScan(scanSettings(served, site.start, truth));
    });
    afterAll(() => served?.close());

    more?.(() => ({ served, truth, scan }));

    it('has its injected faults in the truth derived from the files', () => {
      expect(truth.pages.length).toBeGreaterThanOrEqual(5);
      for (const fault of site.faults) {
        if ('delete' in fault) {
          expect(truth.broken).toContainEqual(
            expect.objectContaining({ url: served.url(fault.delete), reason: 'Not Found' }),
          );
        } else if ('removeId' in fault) {
          expect(truth.missingFragments).toContainEqual(
            expect.objectContaining({
              url: served.url(fault.removeId),
              fragment: `#${fault.id}`,
            }),
          );
        }
      }
    });

    it('completes, having read exactly the pages that exist, each once', () => {
      expect(scan.done.status).toBe(ScanStatus.Complete);
      expect(scan.pages.map((page) => page.finalUrl).sort()).toEqual(truth.pages);
    });

    it('reports exactly the broken links, with their reasons and reference counts', () => {
      const broken = brokenSummary(scan.links).map(({ url, reason, statusCode, referenceCount }) =>
        statusCode === undefined
          ? { url, reason, referenceCount }
          : { url, reason, statusCode, referenceCount },
      );
      expect(broken).toEqual(truth.broken);
    });

    it('reports exactly the broken fragments, per page and reference count', () => {
      expect(missingFragments(scan.links)).toEqual(truth.missingFragments);
    });

    it('gives every linked URL its outcome and reference count', () => {
      expect(urlOutcomes(scan.links)).toEqual(truth.outcomes);
    });

    it("sums up the site's totals", () => {
      const { summary } = scan.done;
      expect({
        pages: summary.pages,
        totalLinks: summary.totalLinks,
        brokenLinks: summary.brokenLinks,
        uniqueBrokenLinks: summary.uniqueBrokenLinks,
        brokenAnchors: summary.brokenAnchors,
        reasons: summary.reasons,
      }).toEqual({
        pages: truth.pages.length,
        totalLinks: truth.totalLinks,
        brokenLinks: truth.brokenLinks,
        uniqueBrokenLinks: truth.broken.length,
        brokenAnchors: truth.brokenFragments,
        reasons: reasonTotals(truth),
      });
    });
  });
}
