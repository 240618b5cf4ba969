import { readFileSync } from 'node:fs';
import { serveFixtureSite, screenshot, type FixtureSite } from './fixture-site.js';
import { expect, test, type Page } from '@playwright/test';
import {
  findingsGroundTruth as truth,
  findingsScanSettings,
  findingsSitemap,
  findingsSitePages,
} from '../packages/engine/src/test-support/findings-site.js';
import { finishedScan, setPlan, signedInUser } from './helpers.js';

// The report viewer (issue 23): both of SPEC's addresses show the report's PDF page by page for
// a scan of the findings site, with navigation, zoom and download, in English and Chinese; a
// report the user may not read says so.

let origin: string;
const pages = findingsSitePages();

let site: FixtureSite;
test.beforeAll(async () => {
  site = await serveFixtureSite(pages, { sitemap: findingsSitemap });
  origin = site.origin;
});
test.afterAll(() => site.close());

/** The page being shown: its text layer, once pdf.js has drawn page `n`. */
async function shownPage(page: Page, n: number) {
  const sheet = page.locator(`.report-viewer-page[data-drawn-page="${n}"]`);
  await expect(sheet).toBeVisible({ timeout: 20_000 });
  return sheet.locator('.textLayer');
}

test('the report viewer pages through the PDF, zooms and downloads it', async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(120_000);
  const { email, token } = await signedInUser(page, request, 'viewer');
  setPlan(email, 'premium');
  const scanId = await finishedScan(request, token, {
    url: `${origin}/`,
    ...findingsScanSettings,
    selectedRules: [...findingsScanSettings.selectedRules],
  });

  // "Show as PDF" on the report opens the viewer.
  await page.goto(`/report/${scanId}`);
  await page.getByRole('button', { name: 'Show as PDF' }).click();
  await expect(page).toHaveURL(new RegExp(`/reportingservice/${scanId}$`));
  await expect(page.getByRole('heading', { name: 'Report viewer' })).toBeVisible();
  // The subtitle names the site, not the scan's id (issue 37).
  await expect(page.locator('.page-lead')).toHaveText(`${origin}/`);
  let text = await shownPage(page, 1);
  await expect(text).toContainText('Link report');
  await expect(text).toContainText('Broken Anchor');
  await expect(text).toContainText(`${origin}/missing.html`);
  const position = page.locator('.report-viewer-position');
  await expect(position).toHaveText(/^Page 1 of \d+$/);
  const total = Number(/of (\d+)/.exec((await position.textContent()) ?? '')?.[1]);
  expect(total).toBeGreaterThanOrEqual(2);
  await screenshot(page, 'report-viewer-en');

  // Page 2 has the duplicate ids and the rule findings.
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(position).toHaveText(`Page 2 of ${total}`);
  text = await shownPage(page, 2);
  await expect(text).toContainText('Duplicate anchors');
  for (const duplicate of truth.duplicateAnchors)
    await expect(text).toContainText(`#${duplicate.anchor}`);
  for (const rule of truth.rules)
    await expect(text).toContainText(`${rule.ruleId} ${rule.ruleName}`);
  await page.getByRole('button', { name: 'Previous page' }).click();
  await expect(position).toHaveText(`Page 1 of ${total}`);
  await expect(page.getByRole('button', { name: 'Previous page' })).toBeDisabled();

  // Zoom: the page is drawn larger.
  const canvas = page.locator('.report-viewer-page canvas');
  const before = (await canvas.boundingBox())?.width ?? 0;
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect(page.locator('.report-viewer-zoom')).toHaveText('150 %');
  await expect
    .poll(async () => (await canvas.boundingBox())?.width ?? 0)
    .toBeGreaterThan(before * 1.15);
  await page.getByRole('button', { name: 'Zoom out' }).click();
  await page.getByRole('button', { name: 'Zoom out' }).click();
  await expect(page.locator('.report-viewer-zoom')).toHaveText('100 %');
  await expect.poll(async () => (await canvas.boundingBox())?.width ?? 0).toBeLessThan(before);

  // Download: the PDF the server made.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download PDF' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^linkaudit-127\.0\.0\.1-.{8}\.pdf$/);
  const saved = await download.path();
  expect(readFileSync(saved).subarray(0, 5).toString()).toBe('%PDF-');

  // SPEC's other address, in Chinese.
  // For the whole site (a cookie given the viewer's URL would hold for its folder only).
  await context.addCookies([
    { name: 'linkaudit_lang', value: 'zh-CN', url: new URL('/', page.url()).toString() },
  ]);
  await page.goto(`/app/reports/ReportViewer?reportTypeID=0&userScanId=${scanId}`);
  await expect(page.getByRole('heading', { name: '报告查看器' })).toBeVisible();
  await expect(page.locator('.page-lead')).toHaveText(`${origin}/`);
  text = await shownPage(page, 1);
  await expect(text).toContainText('链接报告');
  await expect(text).toContainText('失效原因');
  await expect(text).toContainText(`${origin}/missing.html`);
  await expect(position).toHaveText(new RegExp(`^第 1 页，共 ${total} 页$`));
  await page.getByRole('button', { name: '下一页' }).click();
  text = await shownPage(page, 2);
  await expect(text).toContainText('重复的锚点');
  await screenshot(page, 'report-viewer-zh');
});

test('the report viewer says when a report cannot be shown', async ({ page, request }) => {
  const owner = await signedInUser(page, request, 'viewer-owner');
  const scanId = await finishedScan(request, owner.token, { url: `${origin}/` });
  // Another user: the server answers 404 for a scan they do not own.
  await signedInUser(page, request, 'viewer-stranger');
  await page.goto(`/reportingservice/${scanId}`);
  await expect(page.getByRole('alert')).toContainText(
    'This report does not exist, or you may not read it.',
  );
  await page.goto('/app/reports/ReportViewer?reportTypeID=0');
  await expect(page.getByRole('alert')).toContainText('No scan was given');
  await page.goto(`/app/reports/ReportViewer?reportTypeID=3&userScanId=${scanId}`);
  await expect(page.getByRole('alert')).toContainText('This report type is not available.');
});
