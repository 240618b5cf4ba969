import { execFileSync } from 'node:child_process';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** Runs a command against the E2E server's data directory, as an operator would. */
function againstE2eData(args: string[]): void {
  execFileSync(process.execPath, args, {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? '', LOG_LEVEL: 'warn' },
    stdio: 'pipe',
  });
}

/** Records `uniqueUrls` used this month by the account (a finished scan; e2e/record-usage.mjs). */
export function recordUsage(email: string, uniqueUrls: number, url?: string): void {
  againstE2eData(['e2e/record-usage.mjs', email, String(uniqueUrls), ...(url ? [url] : [])]);
}

/** Gives the account the admin role with the operator command (`linkaudit-server admin grant`). */
export function grantAdmin(email: string): void {
  againstE2eData(['packages/server/dist/main.js', 'admin', 'grant', email]);
}

/** A Bearer token for an account made earlier (e.g. by `registerAccount`). */
export async function tokenFor(
  request: APIRequestContext,
  email: string,
  password = 'first-secret',
): Promise<string> {
  const answer = await request.post('/token', {
    form: { grant_type: 'password', username: email, password },
  });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { access_token: string }).access_token;
}

/**
 * The token the web app keeps after signing in through its screens: in its session cookie
 * without "remember me", else in localStorage.
 */
export async function tokenInPage(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((item) => item.name === 'linkaudit_session');
  const token = cookie
    ? decodeURIComponent(cookie.value)
    : await page.evaluate(() => localStorage.getItem('linkaudit.accessToken'));
  expect(token).toBeTruthy();
  return token ?? '';
}

export const finishedStatuses = [1, 2, 3, 4, 10];

/** A scan as GET /api/ScanApi/Get answers it (the fields the tests read). */
export interface ListedScan {
  id: string;
  url: string;
  status: number;
  totalLinks: number;
  badLinks: number;
  scanSettings: Record<string, unknown>;
}

/** The scans of the account behind `token`, as the scan list reads them. */
export async function scansOf(request: APIRequestContext, token: string): Promise<ListedScan[]> {
  const answer = await request.get('/api/ScanApi/Get', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(answer.ok()).toBe(true);
  return (await answer.json()) as ListedScan[];
}

/** Waits (on the server, not the screen) until the scan is finished; answers it. */
export async function serverFinished(
  request: APIRequestContext,
  token: string,
  scanId: string,
  timeout = 20_000,
): Promise<ListedScan> {
  let scan: ListedScan | undefined;
  await expect
    .poll(
      async () => {
        scan = (await scansOf(request, token)).find((item) => item.id === scanId);
        return finishedStatuses.includes(Number(scan?.status));
      },
      { timeout },
    )
    .toBe(true);
  if (!scan) throw new Error(`scan ${scanId} not listed`);
  return scan;
}

/** The public sample report's scan id, once its first scan (queued at server start) finished. */
export async function finishedSampleScan(request: APIRequestContext): Promise<string> {
  let scanId = '';
  await expect
    .poll(
      async () => {
        const answer = await request.get('/api/report/SampleSiteScanId');
        if (!answer.ok()) return false;
        scanId = ((await answer.json()) as { scanId: string }).scanId;
        const summary = await request.get(`/api/report/summary/${scanId}`);
        const { status } = (await summary.json()) as { status: number };
        return finishedStatuses.includes(status);
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return scanId;
}
