import { describe, expect, it } from 'vitest';
import {
  csvCell,
  csvDocument,
  reportQuerySchema,
  ruleGroupKeyOf,
  sampleSiteScanIdSchema,
} from './report.js';

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

describe('the group of a rule finding (issue 25)', () => {
  it('keys a finding by its message with addresses and figures blanked', () => {
    expect(
      ruleGroupKeyOf(
        'Same title as 2 other page(s): https://example.com/b, https://example.com/c',
        '<title>A</title>',
      ),
    ).toBe('Same title as # other page(s): \u2026');
    expect(ruleGroupKeyOf('Same title as 1 other page(s): http://x.test/a', null)).toBe(
      'Same title as # other page(s): \u2026',
    );
    expect(ruleGroupKeyOf('Not an http(s) address: file:///usr/share/doc/a.html', null)).toBe(
      'Not an http(s) address: \u2026',
    );
    expect(ruleGroupKeyOf('Relative address library/os.html; use an absolute URL', null)).toBe(
      'Relative address \u2026; use an absolute URL',
    );
    expect(ruleGroupKeyOf('</div> closes nothing', null)).toBe('</div> closes nothing');
    expect(ruleGroupKeyOf('12.5 KiB sent without Content-Encoding', '<html>')).toBe(
      '# KiB sent without Content-Encoding',
    );
    // Words with digits are words: an unknown "mp3" is not an unknown "mp4".
    expect(ruleGroupKeyOf('Unknown word "mp3"', 'mp3 files')).toBe('Unknown word "mp3"');
    expect(ruleGroupKeyOf('<font> is deprecated: use CSS instead', '<font>a')).toBe(
      '<font> is deprecated: use CSS instead',
    );
  });

  it('keys a finding without a message by the markup it points at, else its text', () => {
    expect(ruleGroupKeyOf(null, '<head><title>One</title>')).toBe('<head>');
    expect(ruleGroupKeyOf(undefined, '  <font color="red">a</font>')).toBe('<font color="red">');
    expect(ruleGroupKeyOf(null, 'plain text here')).toBe('plain text here');
    expect(ruleGroupKeyOf(null, null)).toBe('');
  });
});
