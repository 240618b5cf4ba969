import { describe, expect, it } from 'vitest';
import { plans } from './plans.js';
import { resolveScan, resolvedScanSchema } from './scan-resolution.js';
import { sitesOf } from './websites.js';
import { defaultScanRequest, ScanLimitOption } from './scan-settings.js';

const wanted = defaultScanRequest({
  url: 'https://example.com/',
  scanLimitOption: ScanLimitOption.Unlimited,
  maxLinkAmount: 300_000,
  checkAnchors: true,
  selectedRules: [1, 2],
});
const plenty = { credit: { remainingUrls: 10_000_000 } };

describe('resolveScan', () => {
  it('lets Free shorten its time limit but not lengthen it past 4 hours; paid plans choose', () => {
    const longer = { ...wanted, timeoutAfter: 24 };
    const shorter = { ...wanted, timeoutAfter: 1.5 };
    const timeout = (request: typeof wanted, plan: (typeof plans)['Free']) => {
      const answer = resolveScan(request, plan, plenty);
      return answer.outcome === 'resolved' ? answer.scan.timeoutAfter : undefined;
    };
    expect(timeout(longer, plans.Free)).toBe(4);
    expect(timeout(shorter, plans.Free)).toBe(1.5);
    expect(timeout(longer, plans.Basic)).toBe(24);
  });
  it('holds a Free scan to Limited at the plan cap, without rules or anchors', () => {
    expect(resolveScan(wanted, plans.Free, plenty)).toEqual({
      outcome: 'resolved',
      scan: {
        ...wanted,
        scanLimitOption: ScanLimitOption.Limited,
        maxLinkAmount: 5000,
        checkAnchors: false,
        selectedRules: [],
        linkLimit: 5000,
        withheldRules: [],
      },
    });
  });

  it('renders pages on paid plans only; a Free request to render is left out', () => {
    const rendering = defaultScanRequest({ url: 'https://shop.example.com/', renderPages: true });
    const resolved = (plan: (typeof plans)['Free']) => {
      const resolution = resolveScan(rendering, plan, plenty);
      return resolution.outcome === 'resolved' ? resolution.scan : undefined;
    };
    expect(resolved(plans.Free)).not.toHaveProperty('renderPages');
    for (const plan of [plans.Basic, plans.Premium, plans.Enterprise])
      expect(resolved(plan)?.renderPages).toBe(true);
  });

  it('keeps a paid scan unlimited and caps its link limit by the plan', () => {
    expect(resolveScan(wanted, plans.Premium, plenty)).toEqual({
      outcome: 'resolved',
      scan: { ...wanted, linkLimit: 100_000, withheldRules: [] },
    });
  });

  it('caps a paid Limited scan at the plan and keeps a smaller limit as asked', () => {
    const limited = { ...wanted, scanLimitOption: ScanLimitOption.Limited };
    const capped = resolveScan(limited, plans.Basic, plenty);
    expect(capped).toMatchObject({ scan: { maxLinkAmount: 20_000, linkLimit: 20_000 } });
    const small = resolveScan({ ...limited, maxLinkAmount: 50 }, plans.Basic, plenty);
    expect(small).toMatchObject({ scan: { maxLinkAmount: 50, linkLimit: 50 } });
  });

  it('answers monthly-limit-reached when nothing is left, low-credit when the scan is larger', () => {
    expect(resolveScan(wanted, plans.Premium, { credit: { remainingUrls: 0 } })).toEqual({
      outcome: 'monthly-limit-reached',
    });
    expect(resolveScan(wanted, plans.Premium, { credit: { remainingUrls: 99_999 } })).toEqual({
      outcome: 'low-credit',
      remainingUrls: 99_999,
    });
    expect(
      resolveScan(wanted, plans.Premium, { credit: { remainingUrls: 100_000 } }),
    ).toMatchObject({
      outcome: 'resolved',
    });
  });

  it('withholds Valid HTML rules (category 3) on a paid plan without HTML check, and says so', () => {
    const withHtml = { ...wanted, selectedRules: [1001, 3001, 3099, 4002] };
    expect(resolveScan(withHtml, plans.Basic, plenty)).toMatchObject({
      outcome: 'resolved',
      scan: { selectedRules: [1001, 4002], withheldRules: [3001, 3099] },
    });
    expect(resolveScan(withHtml, plans.Premium, plenty)).toMatchObject({
      scan: { selectedRules: [1001, 3001, 3099, 4002], withheldRules: [] },
    });
    expect(resolveScan(withHtml, plans.Enterprise, plenty)).toMatchObject({
      scan: { withheldRules: [] },
    });
  });

  it('refuses a new site beyond the plan, and always scans a site already kept', () => {
    const kept = sitesOf([
      'https://one.example/',
      'http://www.two.example/a',
      'https://three.example/',
    ]);
    expect(kept.size).toBe(3);
    const newSite = { ...wanted, url: 'https://four.example/' };
    expect(resolveScan(newSite, plans.Free, { keptSites: kept })).toEqual({
      outcome: 'website-limit-reached',
      allowedWebsites: 3,
    });
    // www. and the scheme do not make another site; a path is the same site.
    const keptSite = { ...wanted, url: 'https://two.example/deep/page' };
    expect(resolveScan(keptSite, plans.Free, { keptSites: kept })).toMatchObject({
      outcome: 'resolved',
    });
    // Another port is another site.
    const otherPort = { ...wanted, url: 'https://one.example:8443/' };
    expect(resolveScan(otherPort, plans.Free, { keptSites: kept }).outcome).toBe(
      'website-limit-reached',
    );
    expect(resolveScan(newSite, plans.Basic, { keptSites: kept }).outcome).toBe('resolved');
    const many = sitesOf(Array.from({ length: 500 }, (_, n) => `https://site${n}.example/`));
    expect(resolveScan(newSite, plans.Enterprise, { keptSites: many }).outcome).toBe('resolved');
    expect(resolveScan(newSite, plans.Premium, { keptSites: many }).outcome).toBe(
      'website-limit-reached',
    );
  });

  it('asks the websites before the credit: a refused site is not a credit question', () => {
    const kept = sitesOf([
      'https://one.example/',
      'https://two.example/',
      'https://three.example/',
    ]);
    const newSite = { ...wanted, url: 'https://four.example/' };
    expect(
      resolveScan(newSite, plans.Free, { keptSites: kept, credit: { remainingUrls: 0 } }).outcome,
    ).toBe('website-limit-reached');
  });

  it('does not ask the credit when none is given', () => {
    expect(resolveScan(wanted, plans.Free)).toMatchObject({ scan: { linkLimit: 5000 } });
  });
});

describe('resolvedScanSchema', () => {
  it('parses a stored scan as it was resolved', () => {
    const stored = JSON.parse(JSON.stringify({ ...wanted, linkLimit: 100_000 })) as unknown;
    expect(resolvedScanSchema.parse(stored)).toEqual({
      ...wanted,
      linkLimit: 100_000,
      withheldRules: [],
    });
  });

  it('gives rows stored before resolution their Limited amount, or the smallest plan cap', () => {
    expect(resolvedScanSchema.parse({ ...wanted }).linkLimit).toBe(5000);
    const limited = { ...wanted, scanLimitOption: ScanLimitOption.Limited, maxLinkAmount: 20_000 };
    expect(resolvedScanSchema.parse(limited).linkLimit).toBe(20_000);
  });
});
