import { expect, test, type Browser, type BrowserContext } from '@playwright/test';
import { registerAccount, signInHere, uniqueEmail } from './helpers.js';

/**
 * Issue 21 / SPEC §3 Login: without "remember me" the token is kept for the browser session
 * only; with it, it survives the browser. A restart is a new context holding what a browser keeps
 * on disk: local storage and cookies with an expiry, never session cookies.
 */
async function restart(browser: Browser, context: BrowserContext): Promise<BrowserContext> {
  const state = await context.storageState();
  await context.close();
  return browser.newContext({
    storageState: { ...state, cookies: state.cookies.filter((cookie) => cookie.expires !== -1) },
  });
}

for (const remember of [false, true]) {
  test(`${remember ? 'with' : 'without'} "remember me" the session ${remember ? 'outlives' : 'ends with'} the browser`, async ({
    browser,
    request,
  }) => {
    const email = uniqueEmail(remember ? 'remembered' : 'session');
    await registerAccount(request, email);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto('/signin');
    if (remember) await page.getByLabel('Remember me').check();
    await signInHere(page, email, 'first-secret');

    // Another tab of the same browser shares the session either way.
    const tab = await context.newPage();
    await tab.goto('/scan');
    await expect(tab).toHaveURL(/\/scan$/);
    const stored = await page.evaluate(() => localStorage.getItem('linkaudit.accessToken'));
    expect(stored === null).toBe(!remember);

    const restarted = await restart(browser, context);
    const again = await restarted.newPage();
    await again.goto('/scan');
    if (remember) await expect(again).toHaveURL(/\/scan$/);
    else await expect(again).toHaveURL(/\/signin\?returnUrl=/);
    await restarted.close();
  });
}
