import { expect, test, type Page } from '@playwright/test';
import { registerAccount, signInHere, uniqueEmail } from './helpers.js';

const fieldError = (page: Page, field: string) =>
  page
    .locator('.ant-form-item')
    .filter({ has: page.getByLabel(field, { exact: true }) })
    .locator('.ant-form-item-explain');

test('join: every field is required, the address valid, the password long enough and matched', async ({
  page,
}) => {
  await page.goto('/join');
  await page.getByRole('button', { name: 'Join', exact: true }).click();
  for (const field of [
    'First name',
    'Last name',
    'E-mail address',
    'Password',
    'Confirm password',
  ]) {
    await expect(fieldError(page, field)).toHaveText('This field is required');
  }
  await page.getByLabel('E-mail address').fill('not-an-address');
  await expect(fieldError(page, 'E-mail address')).toHaveText('This is not a valid email address');
  await page.getByLabel('Password', { exact: true }).fill('12345');
  await expect(fieldError(page, 'Password')).toHaveText('Use at least 6 characters');
  await page.getByLabel('Password', { exact: true }).fill('123456');
  await expect(fieldError(page, 'Password')).toHaveCount(0);
  await page.getByLabel('Confirm password').fill('1234567');
  await expect(fieldError(page, 'Confirm password')).toHaveText('Your passwords need to match');
  await page.getByLabel('Confirm password').fill('123456');
  await expect(fieldError(page, 'Confirm password')).toHaveCount(0);
});

test('join: a taken address is answered as a new one, so joining tells nobody it exists', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('taken');
  await registerAccount(request, email);
  await page.goto('/join');
  await page.getByLabel('First name').fill('A');
  await page.getByLabel('Last name').fill('B');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('secret-1');
  await page.getByLabel('Confirm password').fill('secret-1');
  await page.getByRole('button', { name: 'Join', exact: true }).click();
  await expect(page.getByText('Check your inbox')).toBeVisible();
  await expect(page.getByText(`We sent a mail to ${email}`)).toBeVisible();
  await expect(page.locator('.ant-message')).not.toContainText('already registered');
});

test('sign in, forgot and reset: required fields and e-mail format', async ({ page }) => {
  await page.goto('/signin');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(fieldError(page, 'E-mail address')).toHaveText('This field is required');
  await expect(fieldError(page, 'Password')).toHaveText('This field is required');
  await page.getByLabel('E-mail address').fill('a@b');
  await expect(fieldError(page, 'E-mail address')).toHaveText('This is not a valid email address');

  await page.goto('/forgotpassword');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(fieldError(page, 'E-mail address')).toHaveText('This field is required');

  await page.goto('/resetpassword?email=x%40example.com&code=abc');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(fieldError(page, 'New password')).toHaveText('This field is required');
  await expect(fieldError(page, 'Confirm password')).toHaveText('This field is required');
  await page.getByLabel('New password').fill('short');
  await expect(fieldError(page, 'New password')).toHaveText('Use at least 6 characters');
  await page.getByLabel('New password').fill('long-enough');
  await page.getByLabel('Confirm password').fill('different');
  await expect(fieldError(page, 'Confirm password')).toHaveText('Your passwords need to match');
  await page.getByLabel('Confirm password').fill('long-enough');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.locator('.ant-message')).toContainText(
    'The password reset link is invalid or has expired.',
  );
});

test('manage: the old password is asked for, wrong ones refused', async ({ page, request }) => {
  const email = uniqueEmail('manage');
  await registerAccount(request, email);
  await page.goto('/manage');
  await signInHere(page, email, 'first-secret');
  await page.getByLabel('New password').fill('second-secret');
  await page.getByLabel('Confirm password').fill('second-secret');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(fieldError(page, 'Current password')).toHaveText('Please enter old password');
  await page.getByLabel('Current password').fill('wrong-secret');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.locator('.ant-message')).toContainText('The old password is incorrect.');
});
