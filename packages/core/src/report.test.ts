import { describe, expect, it } from 'vitest';
import { csvCell, csvDocument, reportQuerySchema, sampleSiteScanIdSchema } from './report.js';

describe('report contracts', () => {
  it('answers the sample scan id as { scanId }, never empty', () => {
    const id = '140f0f15-437c-409b-9575-13597c0882cf';
    expect(sampleSiteScanIdSchema.parse({ scanId: id })).toEqual({ scanId: id });
    expect(sampleSiteScanIdSchema.safeParse({ scanId: '' }).success).toBe(false);
    expect(sampleSiteScanIdSchema.safeParse({ scanId: null }).success).toBe(false);
  });

  it('reads a tab query with its defaults', () => {
    expect(reportQuerySchema.parse({ page: '2', groupBy: 'target' })).toMatchObject({
      page: 2,
      pageSize: 50,
      status: 'broken',
      groupBy: 'target',
      format: 'json',
    });
  });

  it('neutralises formula cells and writes a BOM and CRLF', () => {
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell(-1)).toBe('-1');
    expect(csvDocument(['a'], [['x']])).toBe('\uFEFFa\r\nx\r\n');
  });
});
