import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { finishedScan, registerAccount, uniqueEmail } from '../helpers.js';
import { grantAdmin, tokenFor } from '../server-data.js';
import { startTestSite, type TestSite } from '../test-site.js';

const outDir = process.env.SCREENSHOT_DIR ?? path.join(tmpdir(), 'linkaudit-screens');
const publishDir = path.join('packages', 'web', 'public', 'screenshots');
const publish = process.env.PUBLISH === '1';
/** The pictures the /screenshots page shows (ScreenshotsPage.tsx, publishedScreens). */
const published = new Set(['home', 'features', 'pricing', 'join', 'manage', 'faq']);

const screens: Array<{
  name: string;
  path: string;
  signedIn?: boolean;
  /** Shown to an operator (a second account with the admin role). */
  admin?: boolean;
  open?: (page: Page) => Promise<void>;
}> = [
  { name: 'home', path: '/' },
  { name: 'features', path: '/features' },
  { name: 'pricing', path: '/pricing' },
  { name: 'faq', path: '/faq' },
  { name: 'about', path: '/about' },
  { name: 'screenshots', path: '/screenshots' },
  { name: 'why-not-translated', path: '/WhyNotTranslated' },
  { name: 'signin', path: '/signin' },
  { name: 'join', path: '/join' },
  { name: 'forgot-password', path: '/forgotpassword' },
  { name: 'reset-password', path: '/resetpassword?email=ada%40example.com&code=x' },
  { name: 'confirm-email', path: '/confirmemail?code=x&userId=y' },
  { name: 'register-external', path: '/registerExternal' },
  {
    name: 'login-dialog',
    path: '/',
    open: async (page) => {
      await page.locator('#home-url').fill('www.example.com');
      await page.locator('form.url-box button[type=submit]').click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  {
    name: 'validation',
    path: '/join',
    open: async (page) => page.locator('form button[type=submit]').click(),
  },
  { name: 'manage', path: '/manage', signedIn: true },
  { name: 'scan', path: '/scan', signedIn: true },
  {
    name: 'scan-expanded',
    path: '/scan',
    signedIn: true,
    open: async (page) => {
      await page
        .locator('tr[data-scan-id]')
        .first()
        .getByRole('button', { name: /expand|展开/i })
        .click();
      await page.waitForTimeout(500);
    },
  },
  { name: 'report', path: '/report/{scanId}', signedIn: true },
  {
    name: 'report-links',
    path: '/report/{scanId}',
    signedIn: true,
    open: async (page) => page.getByRole('tab').nth(1).click(),
  },
  { name: 'print-report', path: '/printreport/{scanId}', signedIn: true },
  { name: 'schedule', path: '/schedule', signedIn: true },
  {
    name: 'admin',
    path: '/admin',
    signedIn: true,
    admin: true,
    open: async (page) => {
      await expect(page.locator('.admin-scans tr.ant-table-row').first()).toBeVisible();
    },
  },
  ...(['users', 'vouchers', 'audit', 'health'] as const).map((tab, index) => ({
    name: `admin-${tab}`,
    path: '/admin',
    signedIn: true,
    admin: true,
    open: async (page: Page) =>
      page
        .getByRole('tab')
        .nth(index + 1)
        .click(),
  })),
  {
    name: 'admin-settings',
    path: '/admin',
    signedIn: true,
    admin: true,
    open: async (page: Page) => {
      await page
        .locator('.admin-scans tr.ant-table-row')
        .first()
        .getByRole('button')
        .nth(1)
        .click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
];
/** SCREENS=admin takes only the screens whose name starts with it. */
const chosen = screens.filter((screen) => screen.name.startsWith(process.env.SCREENS ?? ''));

const widths = [
  { device: 'desktop', viewport: { width: 1280, height: 800 } },
  { device: 'phone', viewport: { width: 390, height: 844 } },
];

for (const language of ['en', 'zh-CN']) {
  for (const { device, viewport } of widths) {
    test(`every screen in ${language} at ${device} width`, async ({
      browser,
      baseURL,
      request,
    }) => {
      const context = await browser.newContext({ viewport, baseURL, locale: language });
      const page = await context.newPage();
      const email = uniqueEmail('screens');
      await registerAccount(request, email);
      const answer = await request.post('/token', {
        form: { grant_type: 'password', username: email, password: 'first-secret' },
      });
      const { access_token: token } = await answer.json();
      const site: TestSite = await startTestSite();
      const scanId = await finishedScan(request, token as string, {
        url: site.url('/'),
        scanDepth: 3,
      });
      const operator = uniqueEmail('screens-admin');
      await registerAccount(request, operator);
      grantAdmin(operator);
      const adminToken = await tokenFor(request, operator);
      mkdirSync(path.join(outDir, language), { recursive: true });
      for (const screen of chosen) {
        await page.goto('/');
        await page.evaluate(
          (value) =>
            value
              ? localStorage.setItem('linkaudit.accessToken', value)
              : localStorage.removeItem('linkaudit.accessToken'),
          screen.signedIn ? (screen.admin ? adminToken : (token as string)) : null,
        );
        await page.goto(screen.path.replace('{scanId}', scanId));
        await page.waitForLoadState('networkidle');
        await screen.open?.(page);
        await page.waitForTimeout(300);
        await page.screenshot({
          path: path.join(outDir, language, `${screen.name}-${device}.png`),
          fullPage: true,
        });
        if (publish && device === 'desktop' && published.has(screen.name)) {
          mkdirSync(path.join(publishDir, language), { recursive: true });
          await page.screenshot({
            path: path.join(publishDir, language, `${screen.name}.jpg`),
            type: 'jpeg',
            quality: 80,
          });
        }
      }
      await context.close();
      await site.close();
    });
  }
}
