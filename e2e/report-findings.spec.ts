import { readFileSync } from 'node:fs';
import { serveFixtureSite, screenshot, type FixtureSite } from './fixture-site.js';
import { expect, test } from '@playwright/test';
import {
  findingsGroundTruth as truth,
  findingsScanSettings,
  findingsSitemap,
  findingsSitePages,
} from '../packages/engine/src/test-support/findings-site.js';
import { antSelect, chooseOption, finishedScan, setPlan, signedInUser } from './helpers.js';

// The report shows every finding of the findings site (broken anchors, duplicate ids, the orphan
// page listed in the sitemap, rule findings), each in its tab, in English and Chinese.

let origin: string;
const pages = findingsSitePages();

let site: FixtureSite;
test.beforeAll(async () => {
  site = await serveFixtureSite(pages, { sitemap: findingsSitemap });
  origin = site.origin;
});
test.afterAll(() => site.close());

test('the report shows broken anchors, duplicate ids, the sitemap orphan and rule findings', async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(90_000);
  const { email, token } = await signedInUser(page, request, 'findings');
  setPlan(email, 'premium');
  const scanId = await finishedScan(request, token, {
    url: `${origin}/`,
    ...findingsScanSettings,
    selectedRules: [...findingsScanSettings.selectedRules],
  });
  await page.goto(`/report/${scanId}`);
  await expect(page.getByRole('heading', { name: 'Scan report' })).toBeVisible();
  // The summary samples broken anchors under their own label.
  await page.getByRole('button', { name: 'Expand All' }).click();
  await expect(page.locator('.report-summary')).toContainText('Broken Anchor');

  // Link tab: every broken anchor is listed among the broken links, and has its own filter.
  await page.getByRole('tab', { name: 'Link' }).click();
  const links = page.getByRole('tabpanel', { name: 'Link' });
  for (const [, target] of truth.brokenAnchors)
    await expect(links).toContainText(`${origin}${target}`);
  await expect(links).toContainText(`${origin}/missing.html`);
  await chooseOption(
    page,
    antSelect(page, 'Show category'),
    `Broken Anchor (${truth.brokenAnchors.length})`,
  );
  await expect(links).not.toContainText(`${origin}/missing.html`);
  await expect(links).toContainText('No element with id or name “in-template” on the page');

  // Duplicate anchors: the id and both places.
  await page.getByRole('tab', { name: 'Duplicate Anchors' }).click();
  const duplicates = page.getByRole('tabpanel', { name: 'Duplicate Anchors' });
  for (const duplicate of truth.duplicateAnchors) {
    const row = duplicates.getByRole('row', { name: new RegExp(`#${escape(duplicate.anchor)}`) });
    await expect(row).toContainText(`${origin}${duplicate.page}`);
    await expect(row).toContainText(
      `Line ${duplicate.duplicate.line}, Position ${duplicate.duplicate.column}`,
    );
    await expect(row).toContainText(
      `Line ${duplicate.first.line}, Position ${duplicate.first.column}`,
    );
  }
  await screenshot(page, 'report-duplicate-anchors-en');

  // Page inclusion: the orphan found via the sitemap, incoming links, sitemap state.
  await page.getByRole('tab', { name: 'Page Inclusion' }).click();
  const inclusion = page.getByRole('tabpanel', { name: 'Page Inclusion' });
  const pageRow = (at: string) => inclusion.locator(`tr[data-row-key="${origin}${at}"]`);
  await expect(pageRow('/orphan.html')).toContainText('Orphan');
  await expect(pageRow('/orphan.html').locator('td').nth(3)).toHaveText('0');
  await expect(pageRow('/guide.html').locator('td').nth(3)).toHaveText(
    String(truth.pages['/guide.html'].incomingLinks),
  );
  // In the sitemap: no.
  await expect(pageRow('/short.html').locator('td').nth(5)).toHaveText('No');
  await screenshot(page, 'report-page-inclusion-en');
  await chooseOption(
    page,
    antSelect(page, 'Show category'),
    'Orphans (in the sitemap, linked from no page) (1)',
  );
  await expect(inclusion.locator('tbody tr.ant-table-row')).toHaveCount(1);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export to CSV' }).click();
  const csv = readFileSync((await (await downloading).path()) ?? '', 'utf8');
  expect(csv).toContain('Page,Status code,Incoming links,In sitemap,Orphan');
  expect(csv).toContain(`${origin}/orphan.html,200,0,yes,yes`);
  expect(csv).not.toContain(`${origin}/guide.html,`);

  // Rule findings with line, position and the catalogue's note.
  await page.getByRole('tab', { name: 'Rule Validation' }).click();
  const rules = page.getByRole('tabpanel', { name: 'Rule Validation' });
  // Every row (the tab opens grouped by rule: issue 25).
  await rules.getByText('All findings').click();
  for (const rule of truth.rules) {
    const row = rules.getByRole('row', {
      name: new RegExp(`${escape(origin)}${escape(rule.page)}`),
    });
    await expect(row).toContainText(rule.ruleName);
  }
  await expect(rules).toContainText('The page has no <title>, or an empty one.');

  // The same tabs in Chinese.
  await context.addCookies([{ name: 'linkaudit_lang', value: 'zh-CN', url: page.url() }]);
  await page.reload();
  await page.getByRole('tab', { name: '重复锚点' }).click();
  await expect(page.getByRole('tabpanel', { name: '重复锚点' })).toContainText('再次定义于');
  await expect(page.getByRole('tabpanel', { name: '重复锚点' })).toContainText('#dup');
  await screenshot(page, 'report-duplicate-anchors-zh');
  await page.getByRole('tab', { name: '页面收录' }).click();
  const zhInclusion = page.getByRole('tabpanel', { name: '页面收录' });
  await expect(zhInclusion).toContainText('孤立页面');
  await expect(zhInclusion).toContainText('入站链接');
  await screenshot(page, 'report-page-inclusion-zh');
  await page.getByRole('tab', { name: '链接', exact: true }).click();
  await chooseOption(page, antSelect(page, '显示类别'), `失效锚点 (${truth.brokenAnchors.length})`);
  await expect(page.getByRole('tabpanel', { name: '链接', exact: true })).toContainText('失效锚点');
  await screenshot(page, 'report-broken-anchors-zh');
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
