// A 5,000-character address gets a clear message, not the contract's issues as JSON (issue 37).
import { expect, test } from '@playwright/test';
import { signedInUser } from './helpers.js';

const languages = [
  {
    lang: 'en',
    start: 'Start scan',
    tooLong: 'The address is too long: at most 2,000 characters.',
  },
  { lang: 'zh-CN', start: '开始扫描', tooLong: '网址太长：最多 2,000 个字符。' },
] as const;

for (const { lang, start, tooLong } of languages) {
  test(`a 5,000-character address is refused in words (${lang})`, async ({
    page,
    request,
    context,
  }) => {
    await context.addCookies([
      { name: 'linkaudit_lang', value: lang, url: test.info().project.use.baseURL ?? '' },
    ]);
    await signedInUser(page, request, `long-url-${lang}`);
    await page.goto('/scan');
    await page.locator('#scan-url').fill(`https://example.com/${'a'.repeat(5000)}`);
    await expect(page.getByRole('status').filter({ hasText: tooLong })).toBeVisible();
    await page.getByRole('button', { name: start, exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: tooLong })).toBeVisible();
    await expect(page.getByText('"code"')).toHaveCount(0);
    await expect(page.getByText('too_big')).toHaveCount(0);
  });
}
