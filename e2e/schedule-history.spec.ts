import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { screenshotOf, serveFixtureSite, type FixtureSite } from './fixture-site.js';
import { setPlan, signedInUser } from './helpers.js';

// The schedule history marks the runs that found new problems (issue 27): a schedule whose site
// changes between its runs; the chart pins exactly those runs (a pin over each one's point, with
// its tooltip) and the run list tags them, in English and in Chinese. The committed pictures
// (docs/screenshots/schedule-history-new-problems*.png) come from SCREENSHOT_DIR=docs/screenshots.

const htmlPage = (links: string[]) =>
  `<!doctype html><html><head><title>Home</title></head><body>${links
    .map((href) => `<a href="${href}">${href}</a>`)
    .join('\n')}</body></html>`;
// Read per request: the test changes the home page between runs.
const pages: Record<string, string> = { '/a': htmlPage([]) };

let site: FixtureSite;
test.beforeAll(async () => {
  site = await serveFixtureSite(pages);
});
test.afterAll(() => site.close());

interface Run {
  scanId: string;
  badLinks: number;
  newProblems: number | null;
}

/** Runs the schedule now and waits until its history lists `count` completed runs. */
async function runSchedule(
  request: APIRequestContext,
  token: string,
  id: string,
  count: number,
): Promise<Run[]> {
  const headers = { authorization: `Bearer ${token}` };
  const started = await request.post(`/api/ScanApi/ScheduledRuns/${id}`, { headers });
  expect(started.ok()).toBe(true);
  let runs: Run[] = [];
  await expect
    .poll(
      async () => {
        const answer = await request.get(`/api/ScanApi/ScheduledRuns/${id}`, { headers });
        runs = (await answer.json()) as Run[];
        return runs.length;
      },
      { timeout: 30_000 },
    )
    .toBe(count);
  return runs;
}

/** Where each element's centre is on the page, left to right. */
async function centres(elements: Locator): Promise<Array<{ x: number; y: number }>> {
  const boxes = await Promise.all((await elements.all()).map((element) => element.boundingBox()));
  return boxes
    .map((box) =>
      box ? { x: box.x + box.width / 2, y: box.y + box.height / 2 } : { x: NaN, y: NaN },
    )
    .sort((a, b) => a.x - b.x);
}

/**
 * The chart's pins (their "!" labels) with the run (0 = oldest) each stands over: its centre
 * against the x-axis labels (one per run: a date and a time, the same text for runs of one
 * minute), within a fifth of the gap between two runs. Found by place, not by order: echarts
 * redraws a hovered pin last.
 */
async function pinnedRuns(
  chart: Locator,
  runs: number,
): Promise<Array<{ run: number; x: number; y: number }>> {
  await chart.scrollIntoViewIfNeeded();
  const axisLabels = chart.locator('svg text').filter({ hasText: /\d{1,2}:\d{2}/ });
  await expect(axisLabels).toHaveCount(runs);
  const runAt = (await centres(axisLabels)).map((centre) => centre.x);
  const gap = runAt[1]! - runAt[0]!;
  const pins = chart.locator('svg text').filter({ hasText: /^!$/ });
  return (await centres(pins)).map(({ x, y }) => {
    const run = runAt.findIndex((at) => Math.abs(at - x) < gap / 5);
    expect(run, `a pin at x ${x} stands over no run (${runAt.join(', ')})`).toBeGreaterThanOrEqual(
      0,
    );
    return { run, x, y };
  });
}

/**
 * Moves the mouse onto a point as a hand does, in steps (echarts follows the pointer's moves),
 * from outside the chart, so each hover starts afresh.
 */
async function hoverAt(page: Page, { x, y }: { x: number; y: number }): Promise<void> {
  await page.mouse.move(1, y, { steps: 2 });
  await page.mouse.move(x, y, { steps: 8 });
}

test('the history chart pins the runs that found new problems, with their count, in both languages', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { email, token } = await signedInUser(page, request, 'schedule-new-problems');
  setPlan(email, 'Basic');
  const url = `${site.origin}/`;
  const created = await request.post('/api/ScanApi/ScheduleScan', {
    headers: { authorization: `Bearer ${token}` },
    data: { url, scheduleSettings: { frequency: 1, dailyHour: '06:00' } },
  });
  expect(created.ok()).toBe(true);
  const { id } = (await created.json()) as { id: string };

  // Run 1: one broken link. Run 2: one more (1 new). Run 3: the same site (none new).
  // Run 4: two more (2 new).
  const sites = [
    ['/a', '/gone-1'],
    ['/a', '/gone-1', '/gone-2'],
    ['/a', '/gone-1', '/gone-2'],
    ['/a', '/gone-1', '/gone-2', '/gone-3', '/gone-4'],
  ];
  let runs: Run[] = [];
  for (const [index, links] of sites.entries()) {
    pages['/'] = htmlPage(links);
    runs = await runSchedule(request, token, id, index + 1);
  }
  expect(runs.map((run) => [run.badLinks, run.newProblems])).toEqual([
    [1, null],
    [2, 1],
    [2, 0],
    [4, 2],
  ]);

  await page.goto('/schedule');
  const row = page.locator('tr.schedule-row', { hasText: url });
  await row.getByRole('button', { name: 'Expand row' }).click();
  const history = page.getByTestId('schedule-history');
  const chart = history.getByRole('img', { name: 'History of the last 100 runs' });
  await expect(chart.locator('svg')).toBeVisible();

  // Four runs on the x axis (oldest first); a pin over the second and over the fourth only.
  const pins = await pinnedRuns(chart, 4);
  expect(pins.map((pin) => pin.run)).toEqual([1, 3]);

  // Hovered, a pin says how many problems are new.
  await hoverAt(page, pins[0]!);
  await expect(chart.getByText('1 new problem since the run before')).toBeVisible();
  await hoverAt(page, pins[1]!);
  await expect(chart.getByText('2 new problems since the run before')).toBeVisible();
  await screenshotOf(history, 'schedule-history-new-problems');

  // The run list (newest first) tags the same runs.
  const list = history.locator('.schedule-runs tbody tr.ant-table-row');
  await expect(list).toHaveCount(4);
  const tags = list.locator('.ant-tag');
  await expect(tags).toHaveText(['2 new', '1 new']);
  await expect(list.nth(0).locator('.ant-tag')).toHaveText('2 new');
  await expect(list.nth(2).locator('.ant-tag')).toHaveText('1 new');

  // In Chinese.
  await context.addCookies([{ name: 'linkaudit_lang', value: 'zh-CN', url: baseURL ?? '' }]);
  await page.reload();
  await row.getByRole('button', { name: '展开行' }).click();
  const chartZh = history.getByRole('img', { name: '最近 100 次运行的历史' });
  const pinsZh = await pinnedRuns(chartZh, 4);
  expect(pinsZh.map((pin) => pin.run)).toEqual([1, 3]);
  await hoverAt(page, pinsZh[0]!);
  await expect(chartZh.getByText('比上一次运行新增 1 个问题')).toBeVisible();
  await hoverAt(page, pinsZh[1]!);
  await expect(chartZh.getByText('比上一次运行新增 2 个问题')).toBeVisible();
  await expect(tags).toHaveText(['新增 2 个', '新增 1 个']);
  await screenshotOf(history, 'schedule-history-new-problems-zh');
});
