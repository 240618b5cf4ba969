import { expect, test } from '@playwright/test';

test('the home page shows the server version in the footer', async ({ page, request }) => {
  const answer = await request.get('/api/ServerVersion');
  const { version } = (await answer.json()) as { version: string };

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Scan Now' })).toBeDisabled();
  const footer = page.getByTestId('server-version');
  await expect(footer).toContainText(`Version ${version.slice(0, 3)}, build ${version.slice(3)}`);
  await expect(page.getByRole('link', { name: 'Health check' })).toHaveAttribute(
    'href',
    '/healthcheck',
  );
  await expect(page.getByRole('link', { name: 'Request a feature' })).toHaveAttribute(
    'href',
    /github\.com/,
  );
});

test('an unknown path redirects to the home page', async ({ page }) => {
  await page.goto('/no/such/page?x=1');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('textbox', { name: 'Website address' })).toBeVisible();
});

test('the footer says so when the version cannot be read', async ({ page }) => {
  await page.route('**/api/ServerVersion', (route) => route.fulfill({ status: 500, body: '{}' }));
  await page.goto('/');
  await expect(page.getByTestId('server-version')).toHaveText('Could not retrieve Version number.');
});

test('the address box validates live and remembers what was typed', async ({ page }) => {
  await page.goto('/');
  const box = page.getByRole('textbox', { name: 'Website address' });
  await box.fill('not a url');
  await expect(page.getByText('The URL entered is invalid')).toBeVisible();
  await box.fill('Example.COM/docs');
  await expect(page.getByRole('button', { name: 'Scan Now' })).toBeEnabled();
  await page.getByRole('button', { name: 'Scan Now' }).click();
  await expect(box).toHaveValue('http://example.com/docs');
  await expect(page.getByRole('dialog', { name: 'Sign in to scan' })).toBeVisible();
  await page.reload();
  await expect(box).toHaveValue('http://example.com/docs');
});

test('a Chinese browser gets the Chinese interface', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'zh-CN' });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('button', { name: '立即扫描' })).toBeVisible();
  await context.close();
});
