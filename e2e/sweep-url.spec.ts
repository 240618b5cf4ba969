import { expect, test } from '@playwright/test';

// Issue 26: a server that scans private addresses (here LINKAUDIT_ALLOWED_HOSTS, see
// e2e/start-server.mjs) says so in /api/ServerVersion, and the home page's address box then
// takes 127.0.0.1:port and localhost:port; its two messages never show at once.

test('the server tells the web app it scans private addresses', async ({ request }) => {
  const answer = (await (await request.get('/api/ServerVersion')).json()) as Record<
    string,
    unknown
  >;
  expect(answer).toMatchObject({ privateTargets: true });
  expect(typeof answer.version).toBe('string');
});

test('the home box takes 127.0.0.1:port and localhost:port when the server allows them', async ({
  page,
}) => {
  await page.goto('/');
  const box = page.locator('#home-url');
  const scanNow = page.getByRole('button', { name: 'Scan Now' });
  for (const address of ['127.0.0.1:8080', 'localhost:3000/docs', 'http://127.0.0.1:4000/']) {
    await box.fill(address);
    await expect(page.getByText('Checking URL, please wait..')).toBeHidden();
    await expect(page.getByText('The URL entered is invalid')).toHaveCount(0);
    await expect(scanNow).toBeEnabled();
  }
});

test('"checking" and "invalid" never show together', async ({ page }) => {
  await page.goto('/');
  const box = page.locator('#home-url');
  await box.fill('not an address');
  await expect(page.getByText('The URL entered is invalid')).toBeVisible();
  // Each keystroke starts a new check: the old verdict leaves at once, in the same frame.
  for (const key of ['x', 'y', 'z']) {
    await box.press(key);
    const shown = await page.evaluate(() => document.body.innerText);
    expect(shown.includes('Checking URL') && shown.includes('The URL entered is invalid')).toBe(
      false,
    );
    await expect(page.getByText('The URL entered is invalid')).toBeVisible();
  }
});
