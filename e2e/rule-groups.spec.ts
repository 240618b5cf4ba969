import { serveFixtureSite, screenshot, type FixtureSite } from './fixture-site.js';
import { expect, test, type Locator } from '@playwright/test';
import { finishedScan, setPlan, signedInUser } from './helpers.js';
import { scansOf, serverFinished } from './server-data.js';

// Issue 25 in the browser: words to ignore in the scan form, the schedule editor and the settings
// viewer; the rule tab grouped (counts per rule, groups of identical findings, their pages);
// "ignore this word" on a spelling finding, and the rerun without it. English and Chinese.

let origin: string;
// Three pages with the same obsolete elements; the start page also has two slips of one edit.
const obsolete = '<font color="red">a</font> <font>b</font> <center>c</center>';
const page = (body: string) =>
  `<!doctype html><html lang="en"><head><title>Page</title></head><body>${body}</body></html>`;
const pages: Record<string, string> = {
  '/': page(
    `${obsolete}<p>We recieve the seperate letters.</p><a href="/b">b</a> <a href="/c">c</a>`,
  ),
  '/b': page(obsolete),
  '/c': page(obsolete),
};

let site: FixtureSite;
test.beforeAll(async () => {
  site = await serveFixtureSite(pages);
  origin = site.origin;
});
test.afterAll(() => site.close());

/** Types words into the tags field (a comma ends each). */
async function typeWords(field: Locator, text: string): Promise<void> {
  await field.click();
  await field.pressSequentially(text);
}

/** A rule's row of the counts table (its key is the rule id; the nested tables' keys are not). */
const ruleRow = (panel: Locator, ruleId: string) =>
  panel.locator(`.rule-counts tr.ant-table-row[data-row-key="${ruleId}"]`);

test('words to ignore are saved with the scan, shown in its settings and obeyed', async ({
  page: browser,
  request,
}) => {
  test.setTimeout(90_000);
  const { email, token } = await signedInUser(browser, request, 'ignore-words');
  setPlan(email, 'premium');
  await browser.goto('/scan');
  await browser.getByLabel('Website address').fill(`${origin}/`);
  await browser.getByRole('tab', { name: 'Scan Depth' }).click();
  await browser.getByRole('radio', { name: /^Site/ }).check();
  await browser.getByRole('tab', { name: 'Rules' }).click();
  await browser.getByRole('checkbox', { name: 'Select all' }).check();
  const field = browser.getByLabel('Words to ignore for spelling');
  await typeWords(field, 'seperate, <b>,');
  const rules = browser.getByRole('tabpanel', { name: 'Rules' });
  await expect(rules.locator('.spelling-ignore .ant-select-selection-item')).toHaveText([
    'seperate',
  ]);
  await expect(rules).toContainText('Not added (one word each');
  await expect(rules).toContainText('<b>');
  await screenshot(browser, 'scan-form-ignore-words-en');
  await browser.getByRole('button', { name: 'Start scan' }).click();
  await expect(
    browser.getByText(/^Scan Job is (successfully queued|queued in position \d+)$/),
  ).toBeVisible();

  const [scan] = await scansOf(request, token);
  expect(scan?.scanSettings).toMatchObject({ spellingIgnore: ['seperate'] });
  await serverFinished(request, token, scan?.id ?? '');
  await browser.goto(`/report/${scan?.id}`);
  await browser.getByRole('button', { name: 'Scan settings' }).click();
  const settings = browser.getByRole('dialog', { name: 'Scan settings' });
  await expect(settings.getByRole('row', { name: /Words to ignore for spelling/ })).toContainText(
    'seperate',
  );
  await settings.getByRole('button', { name: 'Close' }).click();

  // The scan's own word is not reported; the other slip is.
  await browser.getByRole('tab', { name: 'Rule Validation' }).click();
  const panel = browser.getByRole('tabpanel', { name: 'Rule Validation' });
  await ruleRow(panel, '2001').getByRole('button', { name: 'Expand row' }).click();
  await expect(panel).toContainText('Unknown word "recieve"');
  await expect(panel).not.toContainText('Unknown word "seperate"');
});

test('the rule tab groups findings; "ignore this word" keeps a word out of the rerun', async ({
  page: browser,
  request,
  context,
}) => {
  test.setTimeout(90_000);
  const { email, token } = await signedInUser(browser, request, 'rule-groups');
  setPlan(email, 'premium');
  const scanId = await finishedScan(request, token, {
    url: `${origin}/`,
    scanDepth: 3,
    selectedRules: [3007, 2001],
  });
  await browser.goto(`/report/${scanId}`);
  await browser.getByRole('tab', { name: 'Rule Validation' }).click();
  const panel = browser.getByRole('tabpanel', { name: 'Rule Validation' });

  // Counts per rule first: 9 obsolete findings on 3 pages in 2 groups; 2 slips on 1 page.
  const obsoleteRow = ruleRow(panel, '3007');
  await expect(obsoleteRow.locator('td')).toContainText([
    'Obsolete element or attribute',
    '9',
    '3',
    '2',
  ]);
  await expect(ruleRow(panel, '2001').locator('td')).toContainText([
    'Misspelt word',
    '2',
    '1',
    '2',
  ]);

  // A rule expands into its groups (the same <font> on 3 pages is one line), a group into pages.
  await obsoleteRow.getByRole('button', { name: 'Expand row' }).click();
  const groups = panel.locator('.rule-groups tr.ant-table-row');
  await expect(groups).toHaveCount(2);
  await expect(groups.first()).toContainText('font');
  await expect(groups.first().locator('td')).toContainText(['6', '3', `${origin}/`]);
  await groups.first().getByRole('button', { name: 'Expand row' }).click();
  const rows = panel.locator('.rule-group-rows tr.ant-table-row');
  await expect(rows).toHaveCount(6);
  await expect(rows.filter({ hasText: `${origin}/b` })).toHaveCount(2);

  // "Ignore this word" on a spelling finding: the row says it is ignored.
  await ruleRow(panel, '2001').getByRole('button', { name: 'Expand row' }).click();
  const slip = panel.locator('.rule-groups tr.ant-table-row', {
    hasText: 'Unknown word "recieve"',
  });
  await slip.getByRole('button', { name: 'Ignore this word' }).click();
  await expect(
    browser.getByText('"recieve" will not be reported in the next scans of this site.'),
  ).toBeVisible();
  await expect(slip).toContainText('Ignored');
  await expect(slip.getByRole('button', { name: 'Undo' })).toBeVisible();
  await screenshot(browser, 'report-rule-groups-en');

  // Every row is one switch away; the ignored word is marked there too.
  await panel.getByText('All findings').click();
  await expect(panel.locator('tr.ant-table-row')).toHaveCount(11);
  await expect(
    panel.locator('tr.ant-table-row', { hasText: 'Unknown word "recieve"' }),
  ).toContainText('Ignored');
  await panel.getByText('Grouped', { exact: true }).click();

  // The same in Chinese.
  await context.addCookies([{ name: 'linkaudit_lang', value: 'zh-CN', url: browser.url() }]);
  await browser.reload();
  await browser.getByRole('tab', { name: '规则验证' }).click();
  const zhPanel = browser.getByRole('tabpanel', { name: '规则验证' });
  await expect(zhPanel.locator('thead').first()).toContainText('结果数');
  await expect(zhPanel.locator('thead').first()).toContainText('分组数');
  await ruleRow(zhPanel, '2001').getByRole('button', { name: '展开行' }).click();
  const zhSlip = zhPanel.locator('.rule-groups tr.ant-table-row', {
    hasText: 'Unknown word "recieve"',
  });
  await expect(zhSlip).toContainText('已忽略');
  await expect(zhSlip.getByRole('button', { name: '撤销' })).toBeVisible();
  await expect(
    zhPanel.locator('.rule-groups tr.ant-table-row', { hasText: 'Unknown word "seperate"' }),
  ).toContainText('忽略此单词');
  await screenshot(browser, 'report-rule-groups-zh');
  await browser.getByRole('button', { name: '扫描设置' }).click();
  await expect(browser.getByRole('dialog', { name: '扫描设置' })).toContainText(
    '拼写检查忽略的单词',
  );
  await browser.keyboard.press('Escape');

  // Rerun: the new scan takes the site's word and no longer reports it.
  await context.addCookies([{ name: 'linkaudit_lang', value: 'en', url: browser.url() }]);
  await browser.reload();
  await browser.getByRole('button', { name: 'Rerun' }).click();
  await expect(browser).toHaveURL(/\/scan$/);
  const rerun = (await scansOf(request, token)).find((scan) => scan.id !== scanId);
  expect(rerun?.scanSettings).toMatchObject({ spellingIgnore: ['recieve'] });
  await serverFinished(request, token, rerun?.id ?? '');
  await browser.goto(`/report/${rerun?.id}`);
  await browser.getByRole('tab', { name: 'Rule Validation' }).click();
  const again = browser.getByRole('tabpanel', { name: 'Rule Validation' });
  await ruleRow(again, '2001').getByRole('button', { name: 'Expand row' }).click();
  await expect(again.locator('.rule-groups tr.ant-table-row')).toHaveCount(1);
  await expect(again).toContainText('Unknown word "seperate"');
  await expect(again).not.toContainText('Unknown word "recieve"');
});

test('the schedule editor shows and saves a schedule’s words to ignore, in both languages', async ({
  page: browser,
  request,
  context,
}) => {
  const { email, token } = await signedInUser(browser, request, 'schedule-words');
  setPlan(email, 'premium');
  const created = await request.post('/api/ScanApi/ScheduleScan', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      scanSettings: { url: `${origin}/`, selectedRules: [2001], spellingIgnore: ['seperate'] },
      scheduleSettings: { frequency: 1, dailyHour: '09:00', userTimeZoneOffset: 0 },
    },
  });
  expect(created.ok()).toBe(true);
  await browser.goto('/schedule');
  const row = browser.locator('tr.ant-table-row', { hasText: `${origin}/` });
  await row.getByRole('button', { name: 'Edit' }).click();
  const editor = browser.getByRole('dialog', { name: 'Edit scheduled scan' });
  await editor.getByText('Scan settings').click();
  await editor.getByRole('tab', { name: 'Rules' }).click();
  const words = editor.locator('.spelling-ignore .ant-select-selection-item');
  await expect(words).toHaveText(['seperate']);
  await typeWords(editor.getByLabel('Words to ignore for spelling'), 'recieve,');
  await expect(words).toHaveText(['seperate', 'recieve']);
  await editor.getByLabel('Words to ignore for spelling').scrollIntoViewIfNeeded();
  await screenshot(browser, 'schedule-editor-ignore-words-en');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(browser.getByText('Scheduled scan updated')).toBeVisible();
  const listed = await request.get('/api/ScanApi/ScheduleScan', {
    headers: { authorization: `Bearer ${token}` },
  });
  const [schedule] = (await listed.json()) as Array<{
    scanSettings: { spellingIgnore?: string[] };
  }>;
  expect(schedule?.scanSettings.spellingIgnore).toEqual(['seperate', 'recieve']);

  await context.addCookies([{ name: 'linkaudit_lang', value: 'zh-CN', url: browser.url() }]);
  await browser.reload();
  await row.getByRole('button', { name: '编辑' }).click();
  const zhEditor = browser.getByRole('dialog', { name: /编辑/ });
  await zhEditor.getByText('扫描设置').click();
  await zhEditor.getByRole('tab', { name: '规则' }).click();
  await expect(zhEditor.getByText('拼写检查忽略的单词')).toBeVisible();
  await expect(zhEditor.locator('.spelling-ignore .ant-select-selection-item')).toHaveText([
    'seperate',
    'recieve',
  ]);
  await zhEditor.getByText('拼写检查忽略的单词').scrollIntoViewIfNeeded();
  await screenshot(browser, 'schedule-editor-ignore-words-zh');
});
