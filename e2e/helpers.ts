import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

let counter = 0;

/** A new address per call, so tests never share an account. */
export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}-${Date.now()}-${counter}@example.com`;
}

/** Decodes a quoted-printable mail body, enough to read links out of it. */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The newest link to `route` (`/confirmemail`, `/resetpassword`) mailed to `email`, read from the
 * server's outbox; waits for the mail, which is sent after the answer.
 */
export async function mailedLink(email: string, route: string): Promise<string> {
  const outbox = path.join(process.env.E2E_DATA_DIR ?? '', 'mail');
  const recipient = email.replace(/[^a-zA-Z0-9@._-]/g, '_');
  let link: string | undefined;
  await expect
    .poll(
      () => {
        let files: string[];
        try {
          files = readdirSync(outbox).filter((file) => file.endsWith(`-${recipient}.eml`));
        } catch {
          return undefined;
        }
        for (const file of files.sort().reverse()) {
          const mail = decodeQuotedPrintable(readFileSync(path.join(outbox, file), 'utf8'));
          const match = new RegExp(`https?://[^\\s"<>]*${route}\\?[^\\s"<>]+`).exec(mail);
          if (match) {
            link = match[0].replaceAll('&amp;', '&');
            return link;
          }
        }
        return undefined;
      },
      { timeout: 10_000 },
    )
    .toBeTruthy();
  const url = new URL(link ?? '');
  return url.pathname + url.search;
}

/** An account made through the API (the join screen has its own test). */
export async function registerAccount(
  request: APIRequestContext,
  email: string,
  password = 'first-secret',
): Promise<void> {
  const answer = await request.post('/api/account/register', {
    data: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      username: email,
      password,
      confirmPassword: password,
    },
  });
  expect(answer.ok()).toBe(true);
}

/** Signs in through the sign-in screen (the page must show it). */
export async function signInHere(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Successfully signed in')).toBeVisible();
}

/** A new account signed in through the API; the token is put where the web app keeps it. */
/**
 * Signs out with the header button and waits for the home page the app then loads in full
 * (window.location.assign). The "Sign in" link can show before that load starts, so waiting for
 * it alone lets the next page.goto race the app's own navigation.
 */
export async function signOutHere(page: Page): Promise<void> {
  const homeLoaded = page.waitForEvent('load');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await homeLoaded;
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();
}

export async function signedInUser(
  page: Page,
  request: APIRequestContext,
  label: string,
): Promise<{ email: string; token: string }> {
  const email = uniqueEmail(label);
  await registerAccount(request, email);
  const answer = await request.post('/token', {
    form: { grant_type: 'password', username: email, password: 'first-secret' },
  });
  const { access_token: token } = (await answer.json()) as { access_token: string };
  await page.goto('/');
  await page.evaluate((value) => localStorage.setItem('linkaudit.accessToken', value), token);
  return { email, token };
}

/** Makes the account paid with the operator command (`linkaudit-server plan set`). */
export function setPlan(email: string, plan: string): void {
  execFileSync(process.execPath, ['packages/server/dist/main.js', 'plan', 'set', email, plan], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? '', LOG_LEVEL: 'warn' },
    stdio: 'pipe',
  });
}

/** Queues a scan through the API and waits until it is finished; answers its id. */
export async function finishedScan(
  request: APIRequestContext,
  token: string,
  scanSettings: Record<string, unknown>,
): Promise<string> {
  const headers = { authorization: `Bearer ${token}` };
  const created = await request.post('/api/ScanApi/', { data: { scanSettings }, headers });
  expect(created.ok()).toBe(true);
  const { id } = (await created.json()) as { id: string };
  await expect
    .poll(
      async () => {
        const scans = (await (await request.get('/api/ScanApi/Get', { headers })).json()) as Array<{
          id: string;
          status: number;
        }>;
        return [1, 2, 3, 4, 10].includes(scans.find((scan) => scan.id === id)?.status ?? 0);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return id;
}

/** The antd select whose combobox has this accessible name. */
export const antSelect = (page: Page, name: string): Locator =>
  page.locator('.ant-select', { has: page.getByRole('combobox', { name }) });

/**
 * Picks an option of an antd select the way a visitor does (open it, click the option) until the
 * select shows it: on a busy machine a click can land while the dropdown is still opening or
 * closing, and is then lost.
 */
export async function chooseOption(page: Page, select: Locator, option: string): Promise<void> {
  await expect(async () => {
    await select.click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option })
      .first()
      .click({ timeout: 2000 });
    await expect(select).toContainText(option, { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
}
