import { expect, test, type Page } from '@playwright/test';
import {
  antSelect,
  chooseOption,
  registerAccount,
  setPlan,
  signInHere,
  uniqueEmail,
} from './helpers.js';
import {
  finishedSampleScan,
  scansOf,
  serverFinished,
  tokenInPage,
  type ListedScan,
} from './server-data.js';

// The public sample report (SPEC §2 Home, §6 Visitor): the server scans its own demo site at
// first start; visitors read that report and are asked to sign in before rerunning it.

let sampleId: string;
test.beforeAll(async ({ request }) => {
  sampleId = await finishedSampleScan(request);
});

const tabPanel = (page: Page, name: string) => page.getByRole('tabpanel', { name, exact: true });
const range = (page: Page, tab: string) =>
  tabPanel(page, tab).locator('.ant-pagination-total-text');

async function openSampleFromHome(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByRole('link', { name: 'See a sample report' }).click();
  await expect(page).toHaveURL(`/report/${sampleId}`);
  await expect(page.getByRole('heading', { name: 'Scan report' })).toBeVisible();
}

test('a visitor opens the sample report from the home page: tabs, charts and rows', async ({
  page,
}) => {
  await openSampleFromHome(page);
  // Not signed in: the navigation offers sign-in, and no token is kept.
  expect(await page.evaluate(() => localStorage.getItem('linkaudit.accessToken'))).toBeNull();
  await expect(page.locator('.report-page')).toContainText('/sample-site/');

  // Summary: totals, the four sections and every chart of SPEC §2.
  const summary = page.locator('.report-summary');
  await expect(summary.locator('.report-stats')).toContainText('6/ 3');
  for (const section of ['Broken Links', 'UX and SEO Issues', 'Fattest Pages', 'File Types']) {
    await expect(page.locator('.report-section', { hasText: section }).first()).toBeVisible();
  }
  for (const chart of ['Failure reasons', 'Page sizes', 'Size per content type (MB)']) {
    await expect(page.getByRole('img', { name: chart })).toBeVisible();
  }
  await expect(page.getByRole('img', { name: 'SEO' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Valid HTML' })).toBeVisible();
  await page.getByRole('button', { name: 'Expand All' }).click();
  await expect(summary).toContainText('/sample-site/contact.html');
  await expect(summary).toContainText('http://shop.harbour-tea.invalid/');

  // Link tab: the six broken link occurrences and the broken anchor (issue 23), then the anchor alone.
  await page.getByRole('tab', { name: 'Link' }).click();
  const links = tabPanel(page, 'Link');
  await expect(range(page, 'Link')).toHaveText('1-7 of 7');
  await expect(links.locator('tbody tr.ant-table-row')).toHaveCount(7);
  await expect(links).toContainText('/sample-site/images/team.jpg');
  await expect(links).toContainText('Invalid Remote Name');
  await expect(links).toContainText('/sample-site/teas.html#oolong');
  await chooseOption(page, antSelect(page, 'Show links'), 'Broken anchors');
  await expect(range(page, 'Link')).toHaveText('1-1 of 1');
  await expect(links).toContainText('/sample-site/teas.html#oolong');
  await expect(links).toContainText('Broken Anchor');
  await expect(links).toContainText('No element with id or name “oolong” on the page');

  // Page tab: four pages, the oversized gallery first.
  await page.getByRole('tab', { name: 'Page', exact: true }).click();
  const pages = tabPanel(page, 'Page');
  await expect(pages.locator('tbody tr.ant-table-row')).toHaveCount(4);
  await expect(pages.locator('tbody tr.ant-table-row').first()).toContainText('gallery.html');

  // Rule Validation: rows of the enabled rules, filtered by category.
  await page.getByRole('tab', { name: 'Rule Validation' }).click();
  const rules = tabPanel(page, 'Rule Validation');
  await rules.getByText('All findings').click();
  await expect(rules).toContainText('Title missing');
  await expect(rules).toContainText('/sample-site/about.html');
  await chooseOption(page, antSelect(page, 'Show category'), 'Valid HTML');
  await expect(rules).toContainText('Duplicate id');
  await expect(rules).not.toContainText('Title missing');

  await page.getByRole('tab', { name: 'File Types' }).click();
  const types = tabPanel(page, 'File Types');
  await expect(types).toContainText('text/html');
  await expect(types).toContainText('image/jpeg');
});

test('a visitor pressing Rerun signs in in the dialog, then the rerun starts with the same settings', async ({
  page,
  request,
}) => {
  // A paid account, so no plan limit trims the sample's settings (all rules, anchors).
  const email = uniqueEmail('rerun-visitor');
  await registerAccount(request, email);
  setPlan(email, 'Enterprise');
  const sampleSummary = await request.get(`/api/report/summary/${sampleId}`);
  const sample = (await sampleSummary.json()) as { scanSettingsJson: string; badLinks: number };

  await openSampleFromHome(page);
  await page.getByRole('button', { name: 'Rerun' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign in to scan' });
  await expect(dialog).toBeVisible();
  await signInHere(page, email, 'first-secret');

  // Signed in, the rerun happens at once: the scan screen with the new scan in the list.
  await expect(page).toHaveURL('/scan');
  await expect(page.getByText('Scan started, please check in Scan Tab')).toBeVisible();
  const token = await tokenInPage(page);
  const scans = await scansOf(request, token);
  expect(scans).toHaveLength(1);
  const rerun = scans[0] as ListedScan;
  expect(rerun.id).not.toBe(sampleId);
  expect(rerun.scanSettings).toEqual(JSON.parse(sample.scanSettingsJson));
  await expect(page.locator(`tr[data-scan-id="${rerun.id}"]`)).toContainText('/sample-site/');

  // The rerun crawls the same demo site and finds the same broken links.
  const finished = await serverFinished(request, token, rerun.id);
  expect(finished.status).toBe(1);
  expect(finished.badLinks).toBe(sample.badLinks);
});
