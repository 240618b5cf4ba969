// Double-clicking Join registers once (issue 37): it registered twice in one of three tries and
// showed "already registered" beside "You have successfully joined".
import { expect, test } from '@playwright/test';
import { uniqueEmail } from './helpers.js';

const languages = [
  {
    lang: 'en',
    fields: ['First name', 'Last name', 'E-mail address', 'Password', 'Confirm password'],
    join: 'Join',
    joined: 'You have successfully joined',
  },
  {
    lang: 'zh-CN',
    fields: ['名', '姓', '电子邮件地址', '密码', '确认密码'],
    join: '注册',
    joined: '您已成功注册',
  },
] as const;

for (const { lang, fields, join, joined } of languages) {
  test(`a double-click on Join registers once (${lang})`, async ({ page, context }) => {
    await context.addCookies([
      { name: 'linkaudit_lang', value: lang, url: test.info().project.use.baseURL ?? '' },
    ]);
    const registrations: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/account/register')) registrations.push(request.method());
    });
    await page.goto('/join');
    const [first, last, email, password, confirm] = fields;
    await page.getByLabel(first, { exact: true }).fill('Grace');
    await page.getByLabel(last, { exact: true }).fill('Hopper');
    await page.getByLabel(email, { exact: true }).fill(uniqueEmail(`double-join-${lang}`));
    await page.getByLabel(password, { exact: true }).fill('first-secret');
    await page.getByLabel(confirm, { exact: true }).fill('first-secret');
    await page.getByRole('button', { name: join, exact: true }).dblclick();
    await expect(page.getByText(joined)).toBeVisible();
    await expect(page.locator('.ant-message-error, .ant-notification-notice-error')).toHaveCount(0);
    expect(registrations).toEqual(['POST']);
  });
}
