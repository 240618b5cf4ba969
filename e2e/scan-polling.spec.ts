import { expect, test, type Page } from '@playwright/test';
import { finishedScan, registerAccount, uniqueEmail } from './helpers.js';
import { grantAdmin, scansOf, serverFinished, tokenFor } from './server-data.js';
import { startTestSite, type TestSite } from './test-site.js';

// SPEC §4: without the realtime hub the scan list refreshes every 5 s after an initial 20 s
// delay, and merges the fresh values only into rows that are not finished. The hub is blocked
// and the page's clock is driven by the test, so no test waits 20 real seconds.

let site: TestSite;
test.beforeAll(async () => {
  site = await startTestSite();
});
test.afterAll(async () => site.close());

const row = (page: Page, id: string) => page.locator(`tr[data-scan-id="${id}"]`);
const status = (page: Page, id: string) => row(page, id).locator('.scan-status');

test('without the hub, polling alone turns a running row finished and leaves finished rows as they are', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('polling');
  await registerAccount(request, email);
  const token = await tokenFor(request, email);
  // A finished scan already in the list when the screen opens.
  const done = await finishedScan(request, token, { url: site.url('/slow/1'), scanDepth: 1 });

  // The hub refuses every connection: the page sees its socket closed at once.
  let hubAttempts = 0;
  await page.routeWebSocket(/\/hubs\/scans/, (socket) => {
    hubAttempts += 1;
    void socket.close({ code: 1011, reason: 'hub unavailable' });
  });
  await page.clock.install();
  await page.goto('/');
  await page.evaluate((value) => localStorage.setItem('linkaudit.accessToken', value), token);
  await page.goto(`/scan?url=${encodeURIComponent(site.url('/slow/2'))}`);
  await expect(status(page, done)).toHaveAttribute('data-status', '1');

  // A new scan from the form: its row appears queued (the list is read again after submit).
  await page.getByRole('button', { name: 'Start scan' }).click();
  await expect(page.getByText(/Scan Job is queued/)).toBeVisible();
  const running = (await scansOf(request, token)).find((scan) => scan.id !== done)?.id ?? '';
  await expect(status(page, running)).toHaveAttribute('data-status', /^(5|6|9|11)$/);
  expect(hubAttempts).toBeGreaterThan(0);

  // Time stands still on the page from here: no timer can fire unless the test advances it.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  const finished = await serverFinished(request, token, running);
  expect(finished.status).toBe(1);
  // Meanwhile an operator requeues the finished scan: on the server it runs again (slow site).
  const admin = uniqueEmail('polling-admin');
  await registerAccount(request, admin);
  grantAdmin(admin);
  const requeued = await request.put('/api/admin/Requeue/', {
    data: { id: done },
    headers: { authorization: `Bearer ${await tokenFor(request, admin)}` },
  });
  expect(requeued.ok()).toBe(true);
  // Nothing told the page: the finished scan still shows as running there.
  await expect(status(page, running)).toHaveAttribute('data-status', /^(5|6|9|11)$/);

  // 20 s later the first poll reads the list: the running row takes the server's values, the
  // row that was finished keeps its own although the server now has it queued or running.
  const polled = page.waitForResponse('**/api/ScanApi/Get');
  await page.clock.fastForward(20_000);
  const answer = (await (await polled).json()) as Array<{ id: string; status: number }>;
  expect(answer.find((scan) => scan.id === done)?.status).not.toBe(1);
  await page.clock.resume();
  await expect(status(page, running)).toHaveAttribute('data-status', '1');
  await expect(row(page, running)).toContainText('Complete');
  await expect(row(page, running).locator('[data-icon=check]')).toBeVisible();
  await expect(status(page, done)).toHaveAttribute('data-status', '1');
  expect(hubAttempts).toBe(1);
});

test('polling starts 20 s after the screen opens and keeps a 5 s pace', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('polling-pace');
  await registerAccount(request, email);
  const token = await tokenFor(request, email);
  await page.routeWebSocket(/\/hubs\/scans/, (socket) => void socket.close());
  // Each read of the scan list, stamped with the page's (driven) clock.
  await page.addInitScript(() => {
    const stamps: number[] = [];
    (window as unknown as { scanListReads: number[] }).scanListReads = stamps;
    const original = window.fetch.bind(window);
    window.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.endsWith('/api/ScanApi/Get')) stamps.push(Date.now());
      return original(input, init);
    };
  });
  const reads = () =>
    page.evaluate(() => (window as unknown as { scanListReads: number[] }).scanListReads);
  await page.clock.install();
  await page.goto('/');
  await page.evaluate((value) => localStorage.setItem('linkaudit.accessToken', value), token);
  await page.goto('/scan');
  await expect(page.getByText('No scans yet. Start one above.')).toBeVisible();
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  const [opened = 0, ...early] = await reads();
  expect(early).toEqual([]);

  // Up to 42 s after the screen's first read: polls at 20, 25, 30, 35 and 40 s.
  await page.clock.runFor(opened + 42_000 - (await page.evaluate(() => Date.now())));
  const polls = (await reads()).slice(1);
  expect(polls).toHaveLength(5);
  const first = (polls[0] ?? 0) - opened;
  expect(first).toBeGreaterThanOrEqual(20_000);
  expect(first).toBeLessThanOrEqual(20_500);
  expect(polls.slice(1).map((stamp, index) => stamp - (polls[index] ?? 0))).toEqual([
    5000, 5000, 5000, 5000,
  ]);

  // Leaving the screen stops the polling (time flows while the home page loads).
  await page.clock.resume();
  await page.getByRole('menuitem', { name: 'Home' }).click();
  await expect(page.getByRole('button', { name: 'Scan Now' })).toBeVisible();
  const left = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(left + 1000);
  await page.clock.runFor(20_000);
  expect((await reads()).filter((stamp) => stamp > left)).toEqual([]);
});
