import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { registerAccount, signInHere, signOutHere, uniqueEmail } from './helpers.js';
import { tokenInPage } from './server-data.js';

// External logins through the real OpenID provider that e2e/start-server.mjs starts as
// "VideoSite" (e2e/external-login-provider.mjs): every step goes through the screens and the
// provider's redirects, nothing is faked. Each test makes several round trips through the
// provider and argon2 password hashes, so they get more time than the default 30 s.
test.describe.configure({ timeout: 60_000 });

interface Identity {
  sub: string;
  email: string;
  email_verified: boolean;
  given_name: string;
  family_name: string;
}

/** Who signs in at VideoSite when it next asks (null: the person declines). */
async function atVideoSiteSignIn(identity: Identity | null): Promise<void> {
  const control = readFileSync(
    path.join(process.env.E2E_DATA_DIR ?? '', 'oidc-control-url'),
    'utf8',
  ).trim();
  const answer = await fetch(control, { method: 'POST', body: JSON.stringify(identity) });
  expect(answer.status).toBe(204);
}

function newIdentity(label: string): Identity {
  const email = uniqueEmail(label);
  return {
    sub: `videosite-${email}`,
    email,
    email_verified: true,
    given_name: 'Katherine',
    family_name: 'Johnson',
  };
}

const toast = (page: Page) => page.locator('.ant-message');
const videoSiteButton = (page: Page) => page.getByRole('link', { name: 'Sign in with VideoSite' });
const videoSiteRow = (page: Page) =>
  page.locator('.ant-list-item').filter({ hasText: 'VideoSite' });

/** Signed in as `firstName`: the account link in the header, and a stored token. */
async function expectSignedIn(page: Page, firstName: string): Promise<void> {
  await expect(page.getByRole('link', { name: firstName })).toBeVisible();
  // Kept in localStorage, or in the session cookie after a sign-in without "remember me".
  expect(await tokenInPage(page)).not.toBe('');
}

/** A new person through /signin → VideoSite → /registerExternal → signed in. */
async function registerThroughVideoSite(page: Page, identity: Identity): Promise<void> {
  await atVideoSiteSignIn(identity);
  await page.goto('/signin');
  await videoSiteButton(page).click();
  await expect(page).toHaveURL(/\/registerExternal$/);
  await expect(page.getByRole('heading', { name: 'Complete your registration' })).toBeVisible();
  // The provider's address and names are filled in; the token has left the address bar.
  await expect(page.getByLabel('E-mail address')).toHaveValue(identity.email);
  await expect(page.getByLabel('First name')).toHaveValue(identity.given_name);
  await expect(page.getByLabel('Last name')).toHaveValue(identity.family_name);
  expect(new URL(page.url()).hash).toBe('');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(toast(page)).toContainText('You have successfully joined');
  await expect(page).toHaveURL(/\/$/);
  await expectSignedIn(page, identity.given_name);
}

test('a new person registers through VideoSite, then signs in with it directly', async ({
  page,
}, testInfo) => {
  const identity = newIdentity('video-new');
  await atVideoSiteSignIn(identity);
  await page.goto('/signin');
  await videoSiteButton(page).click();
  await expect(page.getByLabel('Last name')).toHaveValue('Johnson');
  await page.screenshot({ path: testInfo.outputPath('register-external.png'), fullPage: true });
  // Names may be corrected before the account is made.
  await page.getByLabel('First name').fill('Kathy');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(toast(page)).toContainText('You have successfully joined');
  await expectSignedIn(page, 'Kathy');

  // The provider vouched for the address (email_verified), so it counts as confirmed.
  await page.getByRole('link', { name: 'Kathy' }).click();
  await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
  await expect(page.getByText(identity.email)).toBeVisible();
  await expect(page.getByText('Confirmed', { exact: true })).toBeVisible();
  await expect(videoSiteRow(page)).toHaveCount(1);
  await expect(page.getByText('Set a password', { exact: true }).first()).toBeVisible();

  // Signing out and in again: a known identity is signed in at once, no form.
  await signOutHere(page);
  await page.goto('/signin');
  await videoSiteButton(page).click();
  await expect(toast(page)).toContainText('Successfully signed in');
  await expect(page).toHaveURL(/\/$/);
  await expectSignedIn(page, 'Kathy');
  await expect(page.getByRole('heading', { name: 'Complete your registration' })).toHaveCount(0);
});

test('the only login stays until a password is set; VideoSite is removed signed in by password', async ({
  page,
}) => {
  const identity = newIdentity('video-only');
  await registerThroughVideoSite(page, identity);
  await page.goto('/manage');
  await videoSiteRow(page).getByRole('button', { name: 'Remove' }).click();
  await expect(toast(page)).toContainText(
    "Cannot remove VideoSite login. Because it's the only login for your account",
  );
  await expect(videoSiteRow(page)).toHaveCount(1);

  // No local login yet: a first password needs no old one.
  await expect(page.getByLabel('Current password')).toHaveCount(0);
  await page.getByLabel('New password').fill('video-secret');
  await page.getByLabel('Confirm password').fill('video-secret');
  await page.getByRole('button', { name: 'Set a password' }).click();
  await expect(toast(page)).toContainText('Password updated successfully');
  await expect(page.getByLabel('Current password')).toBeVisible();

  // Not the only login any more, but still the one this session came through.
  await videoSiteRow(page).getByRole('button', { name: 'Remove' }).click();
  await expect(toast(page)).toContainText(
    'You are logged in with VideoSite account. Please sign in with another account to remove it',
  );
  await expect(videoSiteRow(page)).toHaveCount(1);

  await signOutHere(page);
  await page.goto('/manage');
  await signInHere(page, identity.email, 'video-secret');
  await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
  await videoSiteRow(page).getByRole('button', { name: 'Remove' }).click();
  await expect(toast(page)).toContainText('Successfully removed VideoSite Login');
  await expect(page.getByText('No external login is linked to this account.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add VideoSite' })).toBeVisible();
});

test('a password user adds VideoSite from /manage and cannot remove it while signed in through it', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('video-add');
  await registerAccount(request, email);
  await page.goto('/manage');
  await signInHere(page, email, 'first-secret');
  await expect(page.getByText('No external login is linked to this account.')).toBeVisible();

  // The provider's own address may differ from the account's.
  const identity = { ...newIdentity('video-other'), given_name: 'Ada', family_name: 'Lovelace' };
  await atVideoSiteSignIn(identity);
  await page.getByRole('link', { name: 'Add VideoSite' }).click();
  await expect(toast(page)).toContainText('Successfully added login');
  await expect(page).toHaveURL(/\/manage$/);
  await expect(videoSiteRow(page)).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'Add VideoSite' })).toHaveCount(0);

  // Sent to sign in from /manage, the person comes back there through VideoSite.
  await signOutHere(page);
  await page.goto('/manage');
  await expect(page).toHaveURL(/\/signin\?returnUrl=/);
  await videoSiteButton(page).click();
  await expect(toast(page)).toContainText('Successfully signed in');
  await expect(page).toHaveURL(/\/manage$/);
  await expectSignedIn(page, 'Ada');
  await expect(page.getByText(email)).toBeVisible();
  await videoSiteRow(page).getByRole('button', { name: 'Remove' }).click();
  await expect(toast(page)).toContainText(
    'You are logged in with VideoSite account. Please sign in with another account to remove it',
  );
  await page.reload();
  await expect(videoSiteRow(page)).toHaveCount(1);
});

test('an address that has an account is not taken over by registering it through VideoSite', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('video-taken');
  await registerAccount(request, email);
  await atVideoSiteSignIn({ ...newIdentity('video-taken'), email });
  await page.goto('/signin');
  await videoSiteButton(page).click();
  await expect(page.getByLabel('E-mail address')).toHaveValue(email);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(toast(page)).toContainText('This e-mail address is already registered.');
  await expect(page.getByRole('heading', { name: 'Complete your registration' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('linkaudit.accessToken'))).toBeNull();
});

test('declining at VideoSite comes back signed out with an error, or without adding the login', async ({
  page,
  request,
}, testInfo) => {
  await atVideoSiteSignIn(null);
  await page.goto('/signin');
  await videoSiteButton(page).click();
  await expect(page).toHaveURL(/\/registerExternal$/);
  await expect(page.getByText('The external sign-in did not complete')).toBeVisible();
  await expect(page.getByText('You declined the sign-in at VideoSite.')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('declined.png') });
  expect(await page.evaluate(() => localStorage.getItem('linkaudit.accessToken'))).toBeNull();
  await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Back to sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  // Adding the login from /manage and declining there: still signed in, nothing added.
  const email = uniqueEmail('video-decline');
  await registerAccount(request, email);
  await page.goto('/manage');
  await signInHere(page, email, 'first-secret');
  await page.getByRole('link', { name: 'Add VideoSite' }).click();
  await expect(toast(page)).toContainText('You declined the sign-in at VideoSite.');
  await expect(page).toHaveURL(/\/manage$/);
  await expect(page.getByText('No external login is linked to this account.')).toBeVisible();
  await expectSignedIn(page, 'Ada');
});

test('a token put into the address by someone else is not believed', async ({ page, request }) => {
  // Someone else's valid token, in a link this tab never asked for (no sign-in started here).
  const email = uniqueEmail('video-forged');
  await registerAccount(request, email);
  const answer = await request.post('/token', {
    form: { grant_type: 'password', username: email, password: 'first-secret' },
  });
  const { access_token: token } = (await answer.json()) as { access_token: string };
  await page.goto(`/registerExternal#access_token=${token}&token_type=bearer&state=guessed`);
  await expect(page.getByText('The external sign-in did not complete')).toBeVisible();
  await expect(
    page.getByText('The external login has expired or is not valid. Please sign in again.'),
  ).toBeVisible();
  expect(new URL(page.url()).hash).toBe('');
  expect(await page.evaluate(() => localStorage.getItem('linkaudit.accessToken'))).toBeNull();
  await expect(page.getByRole('link', { name: 'Ada' })).toHaveCount(0);
});

test('the external registration screen in Chinese', async ({ page, context }, testInfo) => {
  await context.addCookies([
    { name: 'linkaudit_lang', value: 'zh-CN', domain: '127.0.0.1', path: '/' },
  ]);
  const identity = { ...newIdentity('video-zh'), given_name: '凯瑟琳', family_name: '约翰逊' };
  await atVideoSiteSignIn(identity);
  await page.goto('/signin');
  await page.getByRole('link', { name: '使用 VideoSite 登录' }).click();
  await expect(page.getByRole('heading', { name: '完成注册' })).toBeVisible();
  await expect(page.getByLabel('电子邮件地址')).toHaveValue(identity.email);
  await expect(page.getByLabel('名', { exact: true })).toHaveValue('凯瑟琳');
  await expect(page.getByLabel('姓', { exact: true })).toHaveValue('约翰逊');
  await page.screenshot({ path: testInfo.outputPath('register-external-zh.png'), fullPage: true });
  await page.getByLabel('姓', { exact: true }).fill('');
  await page.getByRole('button', { name: '创建账户' }).click();
  await expect(page.getByText('此项为必填项')).toBeVisible();
  await page.getByLabel('姓', { exact: true }).fill('约翰逊');
  await page.getByRole('button', { name: '创建账户' }).click();
  await expect(toast(page)).toContainText('您已成功注册');
  await expectSignedIn(page, '凯瑟琳');
});
