import { expect, test } from '@playwright/test';

test('switching language stores a cookie, reloads and translates antd too', async ({
  page,
  context,
}) => {
  await page.goto('/pricing');
  await expect(page.getByRole('heading', { name: 'Simple pricing for every site' })).toBeVisible();
  await page.getByRole('button', { name: 'Language' }).click();
  await expect(page.getByRole('menuitem', { name: 'Help translate LinkAudit' })).toBeVisible();
  await Promise.all([
    page.waitForEvent('load'),
    page.getByRole('menuitem', { name: '简体中文' }).click(),
  ]);
  await expect(page.getByRole('heading', { name: '适合每个网站的简单定价' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  const cookies = await context.cookies();
  expect(cookies.find((cookie) => cookie.name === 'linkaudit_lang')?.value).toBe('zh-CN');
  await expect(page.getByRole('navigation', { name: '主菜单' }).getByRole('menuitem')).toHaveText([
    '首页',
    '扫描',
    '定时扫描',
    '功能',
    '价格',
    '截图',
    '常见问题',
    '关于',
  ]);

  // antd's own texts follow (the empty state of a list is antd's when none is given).
  await page.goto('/signin');
  await page.getByRole('button', { name: /^登\s?录$/ }).click();
  await expect(page.getByText('此项为必填项').first()).toBeVisible();

  await page.getByRole('button', { name: '语言' }).click();
  await Promise.all([
    page.waitForEvent('load'),
    page.getByRole('menuitem', { name: 'English' }).click(),
  ]);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect((await context.cookies()).find((cookie) => cookie.name === 'linkaudit_lang')?.value).toBe(
    'en',
  );
});

test('the information pages have content', async ({ page }) => {
  await page.goto('/faq');
  await expect(
    page.getByRole('button', { name: 'Why do I need to sign in to scan?' }),
  ).toBeVisible();
  await page.goto('/about');
  await expect(page.getByRole('heading', { name: 'About LinkAudit' })).toBeVisible();
  await page.goto('/features');
  await expect(page.getByRole('heading', { name: 'Broken links' })).toBeVisible();
  await page.goto('/pricing');
  for (const price of ['$0', '$9.99', '$29.99', '$59.99']) {
    await expect(page.getByText(price, { exact: true })).toBeVisible();
  }
  await expect(page.getByText('Popular')).toBeVisible();
  await expect(page.getByText('7-day free trial', { exact: true })).toHaveCount(3);
  await page.goto('/screenshots');
  await expect(page.getByRole('img', { name: 'Start from an address' })).toBeVisible();
});
