import { expect, test } from '@playwright/test';
import { registerAccount, signInHere, uniqueEmail } from './helpers.js';

test('the menu follows the configured order and hides entries without a number', async ({
  page,
}) => {
  await page.goto('/');
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu.getByRole('menuitem')).toHaveText([
    'Home',
    'Scan',
    'Schedule',
    'Features',
    'Pricing',
    'Screenshots',
    'FAQ',
    'About',
  ]);
  // Reachable, but not in the menu: the admin view (operators only) and WhyNotTranslated.
  await page.goto('/WhyNotTranslated');
  await expect(
    page.getByRole('heading', { name: 'Why are some texts not translated?' }),
  ).toBeVisible();
});

test('unknown paths go home, /login goes to /signin', async ({ page }) => {
  await page.goto('/nothing/here');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/login');
  await expect(page).toHaveURL(/\/signin$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
});

test('protected screens send a visitor to sign in and back afterwards', async ({
  page,
  request,
}) => {
  for (const protectedPath of ['/scan', '/schedule', '/admin', '/manage', '/reportingservice/7']) {
    await page.goto(protectedPath);
    await expect(page).toHaveURL(`/signin?returnUrl=${encodeURIComponent(protectedPath)}`);
  }
  // Visitors may read the sample report (SPEC §6): the report routes are not protected.
  await page.goto('/report/abc');
  await expect(page.getByRole('heading', { name: 'Scan report' })).toBeVisible();
  await page.goto('/printreport/abc');
  await expect(page.getByRole('heading', { name: 'Scan report summary' })).toBeVisible();
  await expect(page.getByText('The scan was not found.')).toBeVisible();

  const email = uniqueEmail('return');
  await registerAccount(request, email);
  await page.goto('/schedule');
  await signInHere(page, email, 'first-secret');
  await expect(page).toHaveURL(/\/schedule$/);
  await expect(page.getByRole('heading', { name: 'Scheduled scans' })).toBeVisible();
  await expect(page.getByText('Scheduled scans are part of the paid plans.')).toBeVisible();
});

test('Scan Now: a visitor gets the login dialog, then goes to /scan with the address', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('dialog');
  await registerAccount(request, email);
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Website address' }).fill('example.org/shop');
  await page.getByRole('button', { name: 'Scan Now' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign in to scan' });
  await expect(dialog).toBeVisible();
  await signInHere(page, email, 'first-secret');
  await expect(page).toHaveURL(`/scan?url=${encodeURIComponent('http://example.org/shop')}`);

  // Signed in, Scan Now goes straight on.
  await page.goto('/');
  await page.getByRole('button', { name: 'Scan Now' }).click();
  await expect(page).toHaveURL(/\/scan\?url=/);
});

test('the phone layout puts the menu in a drawer', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
  const page = await context.newPage();
  await page.goto('/');
  await page.getByRole('button', { name: 'Open the menu' }).click();
  await page.getByRole('menuitem', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(page.getByText('$29.99')).toBeVisible();
  await context.close();
});
