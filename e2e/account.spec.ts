import { expect, test } from '@playwright/test';
import { mailedLink, signInHere, signOutHere, uniqueEmail } from './helpers.js';

test('join, confirm from the mail, sign in, change the password, sign out', async ({ page }) => {
  const email = uniqueEmail('journey');
  await page.goto('/join');
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('first-secret');
  await page.getByLabel('Confirm password').fill('first-secret');
  await page.getByRole('button', { name: 'Join', exact: true }).click();
  await expect(page.getByText('You have successfully joined')).toBeVisible();
  await expect(page.getByText('Check your inbox')).toBeVisible();

  await page.goto(await mailedLink(email, '/confirmemail'));
  await expect(page.getByText('Your e-mail address is confirmed')).toBeVisible();
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page).toHaveURL(/\/signin$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Remember me').check();
  await signInHere(page, email, 'first-secret');
  await expect(page).toHaveURL(/\/$/);

  await page.getByRole('link', { name: 'Grace' }).click();
  await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByText('Confirmed', { exact: true })).toBeVisible();
  await page.getByLabel('Current password').fill('first-secret');
  await page.getByLabel('New password').fill('second-secret');
  await page.getByLabel('Confirm password').fill('second-secret');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password updated successfully')).toBeVisible();
  // The fresh token keeps this session signed in.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();

  await signOutHere(page);
  expect(await page.evaluate(() => localStorage.getItem('linkaudit.accessToken'))).toBeNull();

  await page.goto('/signin');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('first-secret');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('The user name or password is incorrect.')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('second-secret');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Successfully signed in')).toBeVisible();
});

test('forgot password, reset from the mail, sign in with the new password', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('reset');
  await request.post('/api/account/register', {
    data: {
      firstName: 'Alan',
      lastName: 'Turing',
      username: email,
      password: 'old-secret',
      confirmPassword: 'old-secret',
    },
  });
  await page.goto(`/forgotpassword/${encodeURIComponent(email)}`);
  await expect(page.getByLabel('E-mail address')).toHaveValue(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('Check your inbox')).toBeVisible();

  await page.goto(await mailedLink(email, '/resetpassword'));
  await expect(page.getByLabel('E-mail address')).toHaveValue(email);
  await page.getByLabel('New password').fill('new-secret');
  await page.getByLabel('Confirm password').fill('new-secret');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText('Password reset successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/signin$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await signInHere(page, email, 'new-secret');

  // A used link does not work twice.
  const again = await request.post('/api/account/resetpassword', {
    data: { email, password: 'x-secret', confirmPassword: 'x-secret', code: 'used' },
  });
  expect(again.status()).toBe(400);
});

test('a broken confirmation link says so', async ({ page }) => {
  await page.goto('/confirmemail?code=nope&userId=nobody');
  await expect(page.getByText('The address could not be confirmed')).toBeVisible();
  await expect(page.getByText('The confirmation link is invalid or has expired.')).toBeVisible();
});
