import { describe, expect, it } from 'vitest';
import { brokenLinkChanges, changeMailTexts, listedUrls, renderChangeMail } from './change-mail.js';

describe('the change mail of a scheduled scan', () => {
  const urls = (count: number, prefix: string) =>
    Array.from({ length: count }, (_, index) => `https://example.com/${prefix}${index}`);

  it('finds what appeared and what disappeared', () => {
    expect(brokenLinkChanges(['a', 'b', 'c'], ['b', 'c', 'd'])).toEqual({
      appeared: ['d'],
      disappeared: ['a'],
    });
  });

  it('has the same texts in both languages', () => {
    expect(Object.keys(changeMailTexts['zh-CN']).sort()).toEqual(
      Object.keys(changeMailTexts.en).sort(),
    );
  });

  it('lists up to 20 URLs of each kind and points to the report for the rest', () => {
    const parameters = {
      firstName: 'Ada',
      url: 'https://example.com/',
      changes: { appeared: urls(25, 'new'), disappeared: urls(1, 'fixed') },
      brokenNow: 30,
      reportLink: 'https://linkaudit.test/report/1',
      scheduleLink: 'https://linkaudit.test/schedule',
    };
    const english = renderChangeMail('en', parameters);
    expect(english.subject).toBe('Broken links changed on https://example.com/');
    expect(english.text).toContain('25 new broken links:');
    expect(english.text).toContain(`https://example.com/new${listedUrls - 1}`);
    expect(english.text).not.toContain(`https://example.com/new${listedUrls}`);
    expect(english.text).toContain('… and 5 more in the report.');
    expect(english.text).toContain('1 link works again:');
    expect(english.html).toContain('<a href="https://linkaudit.test/report/1">Open the report</a>');

    const chinese = renderChangeMail('zh-CN', parameters);
    expect(chinese.subject).toBe('https://example.com/ 的失效链接有变化');
    expect(chinese.text).toContain('新增 25 个失效链接：');
    expect(chinese.text).toContain('1 个链接已恢复正常：');
  });

  it('escapes what a page could put in a URL', () => {
    const mail = renderChangeMail('en', {
      firstName: '<b>',
      url: 'https://example.com/',
      changes: { appeared: ['https://example.com/"><script>'], disappeared: [] },
      brokenNow: 1,
      reportLink: 'https://linkaudit.test/report/1',
      scheduleLink: 'https://linkaudit.test/schedule',
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
  });
});
