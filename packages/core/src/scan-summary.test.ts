import { describe, expect, it } from 'vitest';
import { emptyScanSummary, endingStatus } from './scan-summary.js';
import { ScanStatus } from './status.js';

describe('endingStatus', () => {
  it("maps the engine's ending to SPEC's status codes", () => {
    expect(endingStatus({})).toBe(ScanStatus.Complete);
    expect(endingStatus({ stoppedBy: 'link-limit' })).toBe(ScanStatus.OverMaxLinks);
    expect(endingStatus({ stoppedBy: 'error-limit' })).toBe(ScanStatus.OverMaxLinks);
    expect(endingStatus({ stoppedBy: 'timeout' })).toBe(ScanStatus.Timeout);
    expect(endingStatus({ stoppedBy: 'cancelled' })).toBe(ScanStatus.Cancelled);
    expect(endingStatus({ stoppedBy: 'error' })).toBe(ScanStatus.Failed);
  });

  it('is Failed whenever the scan has a failure message', () => {
    expect(endingStatus({ error: 'The start page could not be fetched: 404' })).toBe(
      ScanStatus.Failed,
    );
    expect(endingStatus({ stoppedBy: 'cancelled', error: 'Engine error: boom' })).toBe(
      ScanStatus.Failed,
    );
  });
});

describe('emptyScanSummary', () => {
  it('is all zeros for its start address', () => {
    expect(emptyScanSummary('https://example.com/')).toMatchObject({
      startUrl: 'https://example.com/',
      pages: 0,
      durationMs: 0,
      reasons: {},
      pageSizeBuckets: [0, 0, 0, 0, 0, 0],
      fileTypes: [],
    });
  });
});
