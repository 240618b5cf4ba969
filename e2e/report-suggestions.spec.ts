import { serveFixtureSite, screenshot, type FixtureSite } from './fixture-site.js';
import { expect, test } from '@playwright/test';
import { antSelect, chooseOption, finishedScan, setPlan, signedInUser } from './helpers.js';

// Suggested fixes (issue 27) beside the broken links of the report, in English and Chinese: the
// closest page for a 404, the closest id for a broken #fragment, the end of a redirect chain.

let origin: string;

const htmlPage = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
const pages: Record<string, string> = {
  '/': htmlPage(
    'Home',
    [
      '<a href="/docs/getting-startd.html">Start</a>',
      '<a href="/guide.html#instalation">Install</a>',
      '<a href="/chain/a">Chain</a>',
      '<a href="/docs/getting-started.html">Start</a>',
    ].join('\n'),
  ),
  '/docs/getting-started.html': htmlPage('Getting started', '<p>start</p>'),
  '/guide.html': htmlPage('Guide', '<h2 id="installation">Install</h2><h2 id="usage">Use</h2>'),
};
const redirects: Record<string, string> = { '/chain/a': '/chain/b', '/chain/b': '/guide.html' };

let site: FixtureSite;
test.beforeAll(async () => {
  site = await serveFixtureSite(pages, { redirects });
  origin = site.origin;
});
test.afterAll(() => site.close());

test('the link tab shows a suggested fix beside each broken link, in both languages', async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(90_000);
  const { email, token } = await signedInUser(page, request, 'suggestions');
  setPlan(email, 'premium');
  const scanId = await finishedScan(request, token, {
    url: `${origin}/`,
    scanDepth: 3,
    checkAnchors: true,
  });
  await page.goto(`/report/${scanId}`);
  await page.getByRole('tab', { name: 'Link' }).click();
  const links = page.getByRole('tabpanel', { name: 'Link' });
  await expect(links.getByRole('columnheader', { name: 'Suggested fix' })).toBeVisible();

  const missing = links.getByRole('row').filter({ hasText: `${origin}/docs/getting-startd.html` });
  const fix = missing.getByTestId('suggestion');
  await expect(fix).toContainText('Closest page');
  await expect(
    fix.getByRole('link', { name: `${origin}/docs/getting-started.html` }),
  ).toBeVisible();
  await expect(fix).toContainText(/\d+% sure/);
  await expect(fix).toContainText('the page with the most similar address');

  const anchor = links.getByRole('row').filter({ hasText: `${origin}/guide.html#instalation` });
  await expect(anchor.getByTestId('suggestion')).toContainText('Closest anchor');
  await expect(
    anchor.getByRole('link', { name: `${origin}/guide.html#installation` }),
  ).toBeVisible();
  await screenshot(page, 'report-suggestions-en');

  // All links: a working link through two redirects gets the chain's end, flagged as a chain.
  await chooseOption(page, antSelect(page, 'Show links'), 'All links');
  const chain = links.getByRole('row').filter({ hasText: `${origin}/chain/a` });
  await expect(chain.getByTestId('suggestion')).toContainText('Redirect');
  await expect(chain.getByTestId('suggestion')).toContainText('Chain of 2 redirects');
  await expect(chain.getByRole('link', { name: `${origin}/guide.html` })).toBeVisible();

  await context.addCookies([{ name: 'linkaudit_lang', value: 'zh-CN', url: page.url() }]);
  await page.goto(`/report/${scanId}`);
  await page.getByRole('tab', { name: '链接', exact: true }).click();
  const zhLinks = page.getByRole('tabpanel', { name: '链接', exact: true });
  await expect(zhLinks.getByRole('columnheader', { name: '建议修复' })).toBeVisible();
  const zhMissing = zhLinks
    .getByRole('row')
    .filter({ hasText: `${origin}/docs/getting-startd.html` });
  await expect(zhMissing.getByTestId('suggestion')).toContainText('最接近的页面');
  await expect(zhMissing.getByTestId('suggestion')).toContainText('地址最相近的页面');
  await expect(zhMissing.getByTestId('suggestion')).toContainText(/把握 \d+%/);
  const zhAnchor = zhLinks.getByRole('row').filter({ hasText: `${origin}/guide.html#instalation` });
  await expect(zhAnchor.getByTestId('suggestion')).toContainText('最接近的锚点');
  await screenshot(page, 'report-suggestions-zh');
});

test('the Changes tab and the summary tell new, still and removed problems apart, in both languages', async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(120_000);
  const { email, token } = await signedInUser(page, request, 'changes');
  setPlan(email, 'premium');
  const settings = { url: `${origin}/`, scanDepth: 3, checkAnchors: true };
  await finishedScan(request, token, settings);
  // The site changes: the typo'd page link points elsewhere, a new broken link appears. The
  // typo'd address is linked no more: removed, not fixed (fixed: linked still, and working).
  const before = pages['/'] ?? '';
  pages['/'] = htmlPage(
    'Home',
    [
      '<a href="/guide.html#instalation">Install</a>',
      '<a href="/chain/a">Chain</a>',
      '<a href="/docs/getting-started.html">Start</a>',
      '<a href="/brand-new-404.html">New</a>',
    ].join('\n'),
  );
  const scanId = await finishedScan(request, token, settings).finally(() => {
    pages['/'] = before;
  });
  await page.goto(`/report/${scanId}`);
  await expect(page.locator('.report-change-counts').first()).toContainText(
    'Since the previous scan: 1 new, 1 still, 0 fixed, 1 removed',
  );
  await page.getByRole('tab', { name: 'Changes' }).click();
  const changes = page.getByRole('tabpanel', { name: 'Changes' });
  await expect(changes.getByRole('row')).toHaveCount(4);
  await changes.getByText('New (1)').click();
  await expect(changes.getByRole('row')).toHaveCount(2);
  await expect(changes).toContainText(`${origin}/brand-new-404.html`);
  await changes.getByText('Removed (1)').click();
  await expect(changes).toContainText(`${origin}/docs/getting-startd.html`);
  await changes.getByText('Still (1)').click();
  await expect(changes).toContainText(`${origin}/guide.html#instalation`);
  await expect(changes).toContainText('Broken anchor');
  await screenshot(page, 'report-changes-en');

  await context.addCookies([{ name: 'linkaudit_lang', value: 'zh-CN', url: page.url() }]);
  await page.goto(`/report/${scanId}`);
  await expect(page.locator('.report-change-counts').first()).toContainText(
    '自上次扫描以来：新增 1 个，仍存在 1 个，已修复 0 个，已移除 1 个',
  );
  await page.getByRole('tab', { name: '变化' }).click();
  const zhChanges = page.getByRole('tabpanel', { name: '变化' });
  await zhChanges.getByText('已移除 (1)').click();
  await expect(zhChanges).toContainText(`${origin}/docs/getting-startd.html`);
  await expect(zhChanges).toContainText('失效链接');
  await screenshot(page, 'report-changes-zh');
});
