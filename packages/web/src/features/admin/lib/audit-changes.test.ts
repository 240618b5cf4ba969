// The audit log shows what changed, not 200 characters of the whole record (issue 37).
import { describe, expect, it } from 'vitest';
import { auditChanges } from './audit-changes';

const scan = {
  id: 'b3a1c2d4-0000-4000-8000-000000000001',
  userId: 'u1',
  url: 'https://example.com/',
  dateCreated: '2026-11-28T09:00:00.000Z',
  totalLinks: 1200,
  badLinks: 14,
  scanSettings: { url: 'https://example.com/', maxLinkAmount: 5000, excludeLinks: [] },
  status: 5,
};

describe('audit changes', () => {
  it('lists only the fields that changed, however deep in a long record', () => {
    const after = {
      ...scan,
      status: 3,
      scanSettings: { ...scan.scanSettings, maxLinkAmount: 20000 },
    };
    expect(auditChanges(scan, after)).toEqual([
      { field: 'scanSettings.maxLinkAmount', before: '5000', after: '20000' },
      { field: 'status', before: '5', after: '3' },
    ]);
  });

  it('lists every field of a record created or deleted, and shortens long values', () => {
    expect(auditChanges(null, { code: 'SPRING', type: 2, value: 100 })).toEqual([
      { field: 'code', before: undefined, after: 'SPRING' },
      { field: 'type', before: undefined, after: '2' },
      { field: 'value', before: undefined, after: '100' },
    ]);
    const [change] = auditChanges({ note: 'a' }, { note: 'x'.repeat(500) });
    expect(change?.after).toHaveLength(121);
  });
});
