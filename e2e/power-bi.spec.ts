import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { finishedScan, signedInUser } from './helpers.js';
import { startTestSite, type TestSite } from './test-site.js';

let site: TestSite;
test.beforeAll(async () => {
  site = await startTestSite();
});
test.afterAll(async () => site.close());

/** Pictures for a person to look at, when SCREENSHOT_DIR names a folder for them. */
async function picture(page: Page, name: string): Promise<void> {
  const folder = process.env.SCREENSHOT_DIR;
  if (folder) await page.screenshot({ path: path.join(folder, `${name}.png`), fullPage: true });
}

const basic = (token: string) => ({
  authorization: `Basic ${Buffer.from(`analyst@example.com:${token}`).toString('base64')}`,
});

test('an access token made in /manage opens the Power BI feed of the .pbids file until revoked', async ({
  page,
  request,
}) => {
  // A real scan first, then three screens: more than the default 30 s on a loaded machine.
  test.setTimeout(120_000);
  const { token } = await signedInUser(page, request, 'powerbi');
  const scanId = await finishedScan(request, token, { url: site.url('/'), scanDepth: 3 });

  // Create a token: its secret is shown once.
  await page.goto('/manage');
  const card = page.locator('.bi-tokens');
  await expect(card.getByText('Access tokens for Power BI and Excel')).toBeVisible();
  await expect(card.getByText('No access tokens yet.')).toBeVisible();
  await card.getByLabel('Name').fill('Power BI desktop');
  await card.getByRole('button', { name: 'Create token' }).click();
  const shown = card.locator('.bi-token-created code');
  await expect(shown).toHaveText(/^labi_/);
  const secret = (await shown.textContent()) ?? '';
  await expect(card.getByText('Copy this token now: it will not be shown again.')).toBeVisible();
  await expect(card.locator('.ant-list-item')).toHaveCount(1);
  await expect(card.locator('.ant-list-item')).toContainText('Never used');
  await picture(page, 'manage-access-tokens');

  // The report's button: the feed's address and the .pbids file.
  await page.goto(`/report/${scanId}`);
  await page.getByRole('button', { name: 'Analyze in Power BI' }).click();
  const dialog = page.getByRole('dialog', { name: 'Analyze in Power BI' });
  const feedUrl = `/PowerBi/odata/${scanId}/`;
  await expect(dialog.locator('.bi-feed-url')).toContainText(feedUrl);
  await picture(page, 'report-power-bi-dialog');
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download .pbids' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^linkaudit-127\.0\.0\.1-[0-9a-f]{8}\.pbids$/);
  const pbids = JSON.parse(readFileSync((await download.path()) ?? '', 'utf8')) as {
    version: string;
    connections: Array<{ details: { protocol: string; address: { url: string } } }>;
  };
  expect(pbids.version).toBe('0.1');
  expect(pbids.connections[0]?.details.protocol).toBe('odata');
  const address = pbids.connections[0]?.details.address.url ?? '';
  expect(new URL(address).pathname).toBe(feedUrl);

  // The file's address with the token: the scan's broken links, filtered on the server.
  const filter = encodeURIComponent("contains(targetUri,'/missing')");
  const links = await request.get(
    `${feedUrl}Links?$filter=${filter}&$select=targetUri,statusCode`,
    {
      headers: basic(secret),
    },
  );
  expect(links.status()).toBe(200);
  expect(links.headers()['odata-version']).toBe('4.0');
  const body = (await links.json()) as { value: Array<{ targetUri: string; statusCode: number }> };
  expect(body.value.length).toBeGreaterThan(0);
  expect(
    body.value.every((link) => link.targetUri.includes('/missing') && link.statusCode === 404),
  ).toBe(true);

  // Revoke it in /manage: the feed refuses it from then on.
  await page.goto('/manage');
  await expect(card.locator('.ant-list-item')).toContainText('Last used');
  await card.getByRole('button', { name: 'Revoke' }).click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('Token "Power BI desktop" revoked')).toBeVisible();
  await expect(card.getByText('No access tokens yet.')).toBeVisible();
  const refused = await request.get(`${feedUrl}Links`, { headers: basic(secret) });
  expect(refused.status()).toBe(401);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('Unauthorized');
});

test('the Power BI dialog and the token card in Chinese', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { token } = await signedInUser(page, request, 'powerbi-zh');
  const scanId = await finishedScan(request, token, { url: site.url('/'), scanDepth: 1 });
  await page.context().addCookies([{ name: 'linkaudit_lang', value: 'zh-CN', url: page.url() }]);
  await page.goto('/manage');
  await expect(page.getByText('Power BI 和 Excel 的访问令牌')).toBeVisible();
  await page.locator('.bi-tokens').getByLabel('名称').fill('报表');
  await page.getByRole('button', { name: '创建令牌' }).click();
  await expect(page.getByText('请立即复制此令牌：它不会再次显示。')).toBeVisible();
  await picture(page, 'manage-access-tokens-zh');
  await page.goto(`/report/${scanId}`);
  await page.getByRole('button', { name: '在 Power BI 中分析' }).click();
  const dialog = page.getByRole('dialog', { name: '在 Power BI 中分析' });
  await expect(dialog.locator('.bi-feed-url')).toContainText(`/PowerBi/odata/${scanId}/`);
  await expect(dialog.getByRole('button', { name: '下载 .pbids' })).toBeEnabled();
  await picture(page, 'report-power-bi-dialog-zh');
});
