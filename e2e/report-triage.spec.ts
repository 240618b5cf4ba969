import { serveFixtureSite, screenshot, type FixtureSite } from './fixture-site.js';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import {
  antSelect,
  chooseOption,
  finishedScan,
  registerAccount,
  setPlan,
  signedInUser,
  uniqueEmail,
} from './helpers.js';
import { grantAdmin, scansOf, serverFinished, tokenFor } from './server-data.js';

// Triage that lasts (issue 27) in the browser, in English and in Chinese: the owner ignores a
// broken link with a note and marks another "will fix" (and a rule finding); the ignored link
// leaves the default view, the summary and the scan list's counts, and stays under the ignored
// filter with its note; the site changes, a rerun carries the marks to the new scan; an admin
// reading the scan sees the marks but cannot change them.

let origin: string;
const htmlPage = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body>${body}</body></html>`;
const home = [
  '<a href="/gone-a.html">A</a>',
  '<a href="/gone-b.html">B</a>',
  '<a href="/gone-c.html">C</a>',
  '<a href="/guide.html#nowhere">Guide</a>',
  '<a href="/guide.html">Guide</a>',
];
const pages: Record<string, string> = {
  '/': htmlPage('Home', home.join('\n')),
  // The ignored link is on two pages: both occurrences leave the counts.
  '/guide.html': htmlPage(
    'Guide',
    '<h2 id="install">Install</h2><font>old</font><a href="/gone-a.html">A again</a>',
  ),
};

let site: FixtureSite;
test.beforeAll(async () => {
  site = await serveFixtureSite(pages);
  origin = site.origin;
});
test.afterAll(() => site.close());

/** The screen's words in one language (antd spaces a two-character Chinese button: 忽 略). */
interface Words {
  lang: 'en' | 'zh-CN';
  tabs: { summary: string; link: string; rule: string; changes: string };
  changesIgnored: string;
  allFindings: string;
  ignore: string;
  dialog: string;
  note: string;
  ok: RegExp;
  willFix: string;
  clear: string;
  ignored: string;
  filter: string;
  filterIgnored: string;
  filterAll: string;
  ignoredCount: string;
  ignoredToast: string;
  summaryLine: string;
  brokenLinks: string;
  scanListIgnored: string;
  rerun: string;
  expand: string;
}

const english: Words = {
  lang: 'en',
  tabs: { summary: 'Summary', link: 'Link', rule: 'Rule Validation', changes: 'Changes' },
  changesIgnored: '1 ignored',
  allFindings: 'All findings',
  ignore: 'Ignore…',
  dialog: 'Ignore this problem',
  note: 'Note (optional)',
  ok: /^Ignore$/,
  willFix: 'Will fix',
  clear: 'Clear mark',
  ignored: 'Ignored',
  filter: 'Triage',
  filterIgnored: 'Triage: Ignored',
  filterAll: 'Triage: All, ignored included',
  ignoredCount: '2 ignored',
  ignoredToast: 'Ignored: it is no longer counted in this or later scans of the site.',
  summaryLine: 'Ignored, not counted above: 2 broken links',
  brokenLinks: 'Broken links / unique',
  scanListIgnored: '2 ignored',
  rerun: 'Rerun',
  expand: 'Expand row',
};

const chinese: Words = {
  lang: 'zh-CN',
  tabs: { summary: '摘要', link: '链接', rule: '规则验证', changes: '变化' },
  changesIgnored: '已忽略 1 个',
  allFindings: '全部结果',
  ignore: '忽略…',
  dialog: '忽略此问题',
  note: '备注（可选）',
  ok: /^忽 ?略$/,
  willFix: '将修复',
  clear: '清除标记',
  ignored: '已忽略',
  filter: '处理标记',
  filterIgnored: '处理标记：已忽略',
  filterAll: '处理标记：全部（含已忽略）',
  ignoredCount: '已忽略 2 个',
  ignoredToast: '已忽略：本次及此网站今后的扫描都不再计入此问题。',
  summaryLine: '已忽略，未计入上方数字：2 个失效链接',
  brokenLinks: '失效链接 / 不同',
  scanListIgnored: '已忽略 2',
  rerun: '重新扫描',
  expand: '展开行',
};

/** The screenshots' language suffix. */
const short = (words: Words) => (words.lang === 'en' ? 'en' : 'zh');

const tabPanel = (page: Page, name: string) => page.getByRole('tabpanel', { name, exact: true });
const rowsOf = (panel: Locator, address: string) =>
  panel.locator('tr.ant-table-row').filter({ hasText: address });

/** The broken-links figure of the summary ("occurrences / URLs"). */
const brokenFigure = (page: Page, words: Words) =>
  page.locator('.report-stats .ant-statistic', { hasText: words.brokenLinks });

async function openReportTab(page: Page, scanId: string, tab: string) {
  await page.goto(`/report/${scanId}`);
  await page.getByRole('tab', { name: tab, exact: true }).click();
  return tabPanel(page, tab);
}

/** The owner marks the report of `scanId`: A ignored with a note, B will fix, a rule finding will fix. */
async function markProblems(page: Page, scanId: string, words: Words, note: string) {
  const links = await openReportTab(page, scanId, words.tabs.link);
  const gone = (name: string) => rowsOf(links, `${origin}/${name}`);
  await expect(gone('gone-a.html')).toHaveCount(2);

  await gone('gone-a.html').first().getByRole('button', { name: words.ignore }).click();
  const dialog = page.getByRole('dialog', { name: words.dialog });
  await dialog.getByLabel(words.note).fill(note);
  await screenshot(page, `report-triage-dialog-${short(words)}`);
  await dialog.getByRole('button', { name: words.ok }).click();
  await expect(page.getByText(words.ignoredToast)).toBeVisible();
  // Both occurrences of the ignored URL leave the default view; the others stay.
  await expect(gone('gone-a.html')).toHaveCount(0);
  await expect(gone('gone-b.html')).toHaveCount(1);
  await expect(page.locator('.triage-ignored-count')).toHaveText(words.ignoredCount);

  await gone('gone-b.html').getByRole('button', { name: words.willFix }).click();
  await expect(gone('gone-b.html').getByTestId('triage-badge')).toHaveText(words.willFix);
  await expect(gone('gone-b.html').getByRole('button', { name: words.clear })).toBeVisible();

  // A rule finding, inside the grouped view's expanded group: will fix.
  await page.getByRole('tab', { name: words.tabs.rule, exact: true }).click();
  const rules = tabPanel(page, words.tabs.rule);
  await rules
    .locator('.rule-counts tr.ant-table-row[data-row-key="3007"]')
    .getByRole('button', { name: words.expand })
    .click();
  await rules
    .locator('.rule-groups tr.ant-table-row')
    .first()
    .getByRole('button', { name: words.expand })
    .click();
  const finding = rowsOf(rules.locator('.rule-group-rows'), `${origin}/guide.html`);
  await finding.getByRole('button', { name: words.willFix }).click();
  await expect(finding.getByTestId('triage-badge')).toHaveText(words.willFix);
  await screenshot(page, `report-triage-rules-${short(words)}`);
}

/** The ignored link: out of the summary's figure, behind the summary's line, under the filter. */
async function checkIgnored(page: Page, scanId: string, words: Words, note: string) {
  await page.goto(`/report/${scanId}`);
  // 4 broken link occurrences (A twice, B, C) on 3 URLs; A's two are ignored.
  await expect(brokenFigure(page, words).locator('.ant-statistic-content')).toHaveText(
    /^2\s*\/ 2$/,
  );
  const line = page.locator('.report-ignored');
  await expect(line).toHaveText(words.summaryLine);
  await screenshot(page, `report-triage-summary-${short(words)}`);
  await line.getByRole('button').click();
  const links = tabPanel(page, words.tabs.link);
  await expect(antSelect(page, words.filter)).toContainText(words.filterIgnored);
  const ignored = rowsOf(links, `${origin}/gone-a.html`);
  await expect(ignored).toHaveCount(2);
  await expect(links.locator('tr.ant-table-row')).toHaveCount(2);
  await expect(ignored.first().getByTestId('triage-badge')).toContainText(words.ignored);
  await expect(ignored.first().getByTestId('triage-badge')).toContainText(note);
}

async function checkScanList(page: Page, words: Words) {
  await page.goto('/scan');
  const cells = page.locator('.scan-ignored-links');
  await expect(cells.first()).toHaveText(words.scanListIgnored);
  const row = page.locator('tr.ant-table-row', { has: cells.first() });
  await expect(row.locator('.scan-bad-links')).toHaveText('2');
  await screenshot(page, `report-triage-scans-${short(words)}`);
}

/** Reruns the scan from its report once the site has a new broken link; answers the new scan. */
async function rerunChangedSite(
  page: Page,
  request: APIRequestContext,
  token: string,
  scanId: string,
  words: Words,
): Promise<string> {
  const before = pages['/'] ?? '';
  pages['/'] = htmlPage('Home', [...home, '<a href="/gone-d.html">D</a>'].join('\n'));
  try {
    await page.goto(`/report/${scanId}`);
    await page.getByRole('button', { name: words.rerun }).click();
    await expect(page).toHaveURL(/\/scan$/);
    const rerun = (await scansOf(request, token)).find((scan) => scan.id !== scanId);
    expect(rerun).toBeDefined();
    await serverFinished(request, token, rerun?.id ?? '');
    return rerun?.id ?? '';
  } finally {
    pages['/'] = before;
  }
}

/** The new scan carries the marks: A still ignored (with its note), B will fix, D new and open. */
async function checkCarried(page: Page, scanId: string, words: Words, note: string) {
  const links = await openReportTab(page, scanId, words.tabs.link);
  await expect(rowsOf(links, `${origin}/gone-d.html`)).toHaveCount(1);
  await expect(rowsOf(links, `${origin}/gone-a.html`)).toHaveCount(0);
  await expect(rowsOf(links, `${origin}/gone-b.html`).getByTestId('triage-badge')).toHaveText(
    words.willFix,
  );
  await chooseOption(page, antSelect(page, words.filter), words.filterAll);
  const ignored = rowsOf(links, `${origin}/gone-a.html`);
  await expect(ignored).toHaveCount(2);
  await expect(ignored.first().getByTestId('triage-badge')).toContainText(note);
  await expect(rowsOf(links, `${origin}/gone-d.html`).getByTestId('triage-badge')).toHaveCount(0);
  await screenshot(page, `report-triage-${short(words)}`);
  // The rule finding's mark is carried too.
  await page.getByRole('tab', { name: words.tabs.rule, exact: true }).click();
  const rules = tabPanel(page, words.tabs.rule);
  await rules
    .locator('.rule-counts tr.ant-table-row[data-row-key="3007"]')
    .getByRole('button', { name: words.expand })
    .click();
  await rules
    .locator('.rule-groups tr.ant-table-row')
    .first()
    .getByRole('button', { name: words.expand })
    .click();
  await expect(
    rowsOf(rules.locator('.rule-group-rows'), `${origin}/guide.html`).getByTestId('triage-badge'),
  ).toHaveText(words.willFix);
  // The flat list of findings shows it too, with its actions.
  await rules.getByText(words.allFindings, { exact: true }).click();
  const flat = rowsOf(rules, `${origin}/guide.html`);
  await expect(flat).toHaveCount(1);
  await expect(flat.getByTestId('triage-badge')).toHaveText(words.willFix);
  await expect(flat.getByRole('button', { name: words.clear })).toBeVisible();
}

/** The Changes tab of the rerun: marks on still problems, the ignored one behind the filter. */
async function checkChanges(page: Page, scanId: string, words: Words, note: string) {
  const changes = await openReportTab(page, scanId, words.tabs.changes);
  await expect(rowsOf(changes, `${origin}/gone-d.html`)).toHaveCount(1);
  await expect(rowsOf(changes, `${origin}/gone-b.html`).getByTestId('triage-badge')).toHaveText(
    words.willFix,
  );
  await expect(rowsOf(changes, `${origin}/gone-a.html`)).toHaveCount(0);
  await changes.locator('.triage-ignored-count').filter({ hasText: words.changesIgnored }).click();
  await expect(antSelect(page, words.filter)).toContainText(words.filterIgnored);
  await expect(changes.locator('tr.ant-table-row')).toHaveCount(1);
  await expect(rowsOf(changes, `${origin}/gone-a.html`).getByTestId('triage-badge')).toContainText(
    note,
  );
  await screenshot(page, `report-triage-changes-${short(words)}`);
}

async function triageJourney(
  page: Page,
  request: APIRequestContext,
  words: Words,
  note: string,
): Promise<{ token: string; scanId: string }> {
  const { email, token } = await signedInUser(page, request, `triage-${words.lang}`);
  setPlan(email, 'premium');
  await page.context().addCookies([{ name: 'linkaudit_lang', value: words.lang, url: page.url() }]);
  const first = await finishedScan(request, token, {
    url: `${origin}/`,
    scanDepth: 3,
    checkAnchors: true,
    selectedRules: [3007],
  });
  await markProblems(page, first, words, note);
  await checkIgnored(page, first, words, note);
  await checkScanList(page, words);
  const second = await rerunChangedSite(page, request, token, first, words);
  await checkCarried(page, second, words, note);
  await checkChanges(page, second, words, note);
  return { token, scanId: second };
}

test('the owner ignores and marks problems; the marks last to the next scan (English)', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const note = 'Old campaign page, removed on purpose';
  const { scanId } = await triageJourney(page, request, english, note);

  // Clearing a mark brings the link back into the default view and the counts.
  const links = await openReportTab(page, scanId, english.tabs.link);
  await chooseOption(page, antSelect(page, english.filter), english.filterIgnored);
  await rowsOf(links, `${origin}/gone-a.html`)
    .first()
    .getByRole('button', { name: english.clear })
    .click();
  await expect(page.getByText('Mark cleared: the problem counts again.')).toBeVisible();
  await expect(links.locator('tr.ant-table-row')).toHaveCount(0);
  await chooseOption(page, antSelect(page, english.filter), 'Triage: Open (ignored hidden)');
  await expect(rowsOf(links, `${origin}/gone-a.html`)).toHaveCount(2);

  // An admin reading the owner's scan sees the marks, not the controls.
  const adminEmail = uniqueEmail('triage-admin');
  await registerAccount(request, adminEmail);
  grantAdmin(adminEmail);
  const adminToken = await tokenFor(request, adminEmail);
  await page.evaluate((value) => localStorage.setItem('linkaudit.accessToken', value), adminToken);
  const ownerCheck = page.waitForResponse((answer) =>
    answer.url().includes(`/api/report/triage/${scanId}`),
  );
  const adminLinks = await openReportTab(page, scanId, english.tabs.link);
  expect((await ownerCheck).status()).toBe(404);
  await expect(rowsOf(adminLinks, `${origin}/gone-b.html`).getByTestId('triage-badge')).toHaveText(
    english.willFix,
  );
  await expect(adminLinks.getByRole('button', { name: english.ignore })).toHaveCount(0);
  await expect(adminLinks.getByRole('button', { name: english.willFix })).toHaveCount(0);
});

test('the same triage in Chinese', async ({ page, request }) => {
  test.setTimeout(150_000);
  await triageJourney(page, request, chinese, '旧的活动页面，已有意删除');
});
