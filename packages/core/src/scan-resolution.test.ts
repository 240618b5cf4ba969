import { describe, expect, it } from 'vitest';
import { plans } from './plans.js';
import { resolveScan, resolvedScanSchema } from './scan-resolution.js';
import { defaultScanRequest, ScanLimitOption } from './scan-settings.js';

const wanted = defaultScanRequest({
  url: 'https://example.com/',
  scanLimitOption: ScanLimitOption.Unlimited,
  maxLinkAmount: 300_000,
  checkAnchors: true,
  selectedRules: [1, 2],
});
const plenty = { remainingUrls: 10_000_000 };

describe('resolveScan', () => {
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
      },
    });
  });

  it('keeps a paid scan unlimited and caps its link limit by the plan', () => {
    expect(resolveScan(wanted, plans.Premium, plenty)).toEqual({
      outcome: 'resolved',
      scan: { ...wanted, linkLimit: 100_000 },
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
    expect(resolveScan(wanted, plans.Premium, { remainingUrls: 0 })).toEqual({
      outcome: 'monthly-limit-reached',
    });
    expect(resolveScan(wanted, plans.Premium, { remainingUrls: 99_999 })).toEqual({
      outcome: 'low-credit',
      remainingUrls: 99_999,
    });
    expect(resolveScan(wanted, plans.Premium, { remainingUrls: 100_000 })).toMatchObject({
      outcome: 'resolved',
    });
  });

  it('does not ask the credit when none is given', () => {
    expect(resolveScan(wanted, plans.Free)).toMatchObject({ scan: { linkLimit: 5000 } });
  });
});

describe('resolvedScanSchema', () => {
  it('parses a stored scan as it was resolved', () => {
    const stored = JSON.parse(JSON.stringify({ ...wanted, linkLimit: 100_000 })) as unknown;
    expect(resolvedScanSchema.parse(stored)).toEqual({ ...wanted, linkLimit: 100_000 });
  });

  it('gives rows stored before resolution their Limited amount, or the smallest plan cap', () => {
    expect(resolvedScanSchema.parse({ ...wanted }).linkLimit).toBe(5000);
    const limited = { ...wanted, scanLimitOption: ScanLimitOption.Limited, maxLinkAmount: 20_000 };
    expect(resolvedScanSchema.parse(limited).linkLimit).toBe(20_000);
  });
});
