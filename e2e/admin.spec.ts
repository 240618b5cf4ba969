import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { antSelect, chooseOption, finishedScan, registerAccount, uniqueEmail } from './helpers.js';
import { grantAdmin, tokenFor } from './server-data.js';
import { startTestSite, type TestSite } from './test-site.js';

// The operator's screen (issue 24): an admin sees other users' scans, requeues a running one,
// sets one to Failed, edits settings and disables a user; a non-admin is refused everywhere.

interface AdminRow {
  id: string;
  status: number;
  attempts: number;
  scanSettings: { scanDepth: number };
}

let site: TestSite;
test.beforeAll(async () => {
  site = await startTestSite();
});
test.afterAll(async () => {
  await site.close();
});

async function useToken(page: Page, token: string): Promise<void> {
  await page.goto('/');
  await page.evaluate((value) => localStorage.setItem('linkaudit.accessToken', value), token);
}

async function adminScan(request: APIRequestContext, token: string, id: string) {
  const answer = await request.get('/api/admin/scans/page?pageSize=200', {
    headers: { authorization: `Bearer ${token}` },
  });
  const page = (await answer.json()) as { rows: AdminRow[] };
  return page.rows.find((row) => row.id === id);
}

/** A scan's row (antd keys each row by the scan id). */
const rowOf = (page: Page, id: string) => page.locator(`.admin-scans tr[data-row-key="${id}"]`);

test('an admin requeues a running scan, sets one Failed, edits settings and disables the owner', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const owner = uniqueEmail('admin-owner');
  await registerAccount(request, owner);
  const ownerToken = await tokenFor(request, owner);
  const headers = { authorization: `Bearer ${ownerToken}` };
  const done = await finishedScan(request, ownerToken, { url: site.url('/'), scanDepth: 3 });
  const created = await request.post('/api/ScanApi/', {
    data: { scanSettings: { url: site.url('/slow/1'), scanDepth: 3 } },
    headers,
  });
  const running = ((await created.json()) as { id: string }).id;

  const admin = uniqueEmail('admin-boss');
  await registerAccount(request, admin);
  grantAdmin(admin);
  const adminToken = await tokenFor(request, admin);
  await expect.poll(async () => (await adminScan(request, adminToken, running))?.status).toBe(5);

  await useToken(page, adminToken);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Operator view' })).toBeVisible();
  await page.getByLabel("Owner's e-mail").fill(owner);
  await page.getByLabel("Owner's e-mail").press('Enter');
  await expect(page.locator('.admin-scans tr.ant-table-row')).toHaveCount(2);
  await expect(rowOf(page, running)).toContainText(owner);
  await expect(rowOf(page, running)).toContainText('In Progress');

  // Requeue of the running scan: its attempt is stopped first, then it runs again, once.
  await rowOf(page, running).getByRole('button', { name: 'Requeue' }).click();
  await expect(page.getByText(/The running attempt is being stopped/)).toBeVisible();
  await expect
    .poll(async () => (await adminScan(request, adminToken, running))?.status, { timeout: 20_000 })
    .toBe(5);
  expect((await adminScan(request, adminToken, running))?.attempts).toBe(1);

  // Set to Failed, after a confirmation.
  const doneRow = rowOf(page, done);
  await doneRow.getByRole('button', { name: 'Set to Failed' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText('Set this scan to Failed?');
  // Clicked once the dialog has finished zooming in (a CI run's click during it was lost).
  await expect(page.locator('.ant-modal[class*="ant-zoom-"]')).toHaveCount(0);
  await confirm.getByRole('button', { name: 'Set to Failed' }).click();
  await expect(page.getByText('The scan is set to Failed.')).toBeVisible();
  await expect(doneRow).toContainText('Failed');
  expect((await adminScan(request, adminToken, done))?.status).toBe(3);

  // Edit settings in the users' settings editor: Single Page instead of Site, then requeued.
  await doneRow.getByRole('button', { name: 'Edit settings' }).click();
  const editor = page.getByRole('dialog');
  await expect(editor).toContainText(`Scan settings of ${owner}`);
  await editor.getByText('Single Page', { exact: false }).first().click();
  await editor.getByRole('button', { name: 'Save and requeue' }).click();
  await expect(page.getByText('Settings saved; the scan is requeued.')).toBeVisible();
  await expect
    .poll(async () => (await adminScan(request, adminToken, done))?.status, { timeout: 20_000 })
    .toBe(1);
  expect((await adminScan(request, adminToken, done))?.scanSettings.scanDepth).toBe(1);

  // Disable the owner: sign-in refused with a clear message, the running scan stops.
  await page.getByRole('tab', { name: 'Users' }).click();
  await page.getByLabel('Search by e-mail or name').fill(owner);
  await page.getByLabel('Search by e-mail or name').press('Enter');
  const userRow = page.locator('.admin-users tr.ant-table-row').filter({ hasText: owner });
  await expect(userRow).toHaveCount(1);
  await userRow.getByRole('button', { name: 'Disable' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Disable' }).click();
  await expect(page.getByText('The account is disabled.')).toBeVisible();
  await expect(userRow).toContainText('Disabled');
  const signIn = await request.post('/token', {
    form: { grant_type: 'password', username: owner, password: 'first-secret' },
  });
  expect(((await signIn.json()) as { error_description: string }).error_description).toBe(
    'This account has been disabled. Please contact support.',
  );
  expect((await request.get('/api/ScanApi/Get', { headers })).status()).toBe(401);
  await expect
    .poll(async () => (await adminScan(request, adminToken, running))?.status, { timeout: 20_000 })
    .toBe(2);

  // Every change is in the audit log with who did it.
  await page.getByRole('tab', { name: 'Audit log' }).click();
  const audit = page.locator('.admin-audit tbody');
  for (const action of [
    'Disabled a user',
    'Edited scan settings',
    'Set a scan to Failed',
    'Requeued a scan',
  ]) {
    await expect(audit.locator('tr').filter({ hasText: action }).first()).toContainText(admin);
  }
  // Before and After show the fields that changed, not the start of the whole record (issue 37).
  const failedEntry = audit.locator('tr').filter({ hasText: 'Set a scan to Failed' }).first();
  await expect(failedEntry.locator('td').nth(4)).toContainText('status: 1');
  await expect(failedEntry.locator('td').nth(5)).toContainText('status: 3');
  await expect(failedEntry).not.toContainText('"id"');
  const editedEntry = audit.locator('tr').filter({ hasText: 'Edited scan settings' }).first();
  await expect(editedEntry.locator('td').nth(5)).toContainText('scanSettings.scanDepth: 1');

  // The sample report's scan is owned by a named system account, not "system:sample-report".
  await page.getByRole('tab', { name: 'Scans' }).click();
  await page.getByLabel("Owner's e-mail").fill('');
  await page.getByLabel("Owner's e-mail").press('Enter');
  await page.getByLabel('Address contains').fill('/sample-site/');
  await page.getByLabel('Address contains').press('Enter');
  await expect(page.locator('.admin-owner').first()).toHaveText('LinkAudit sample report');
  await page.getByRole('tab', { name: 'Health' }).click();
  await expect(page.getByText('Scans by status')).toBeVisible();

  // Outgoing mail (issue 36): the owner's confirmation, delivered (here to DATA_DIR/mail).
  await page.getByRole('tab', { name: 'Mail' }).click();
  const mail = page.locator('.admin-outbox tbody tr').filter({ hasText: owner });
  await expect(mail).toContainText('Confirm your LinkAudit account');
  await expect(mail).toContainText('Sent');
  await chooseOption(page, antSelect(page, 'Mail state'), 'Given up');
  await expect(page.locator('.admin-outbox')).not.toContainText(owner);
});

test('an admin sees a scan’s credentials as set or not, never their values, and clears one', async ({
  page,
  request,
}) => {
  const owner = uniqueEmail('credentials-owner');
  await registerAccount(request, owner);
  const ownerToken = await tokenFor(request, owner);
  const done = await finishedScan(request, ownerToken, {
    url: site.url('/'),
    windowsAuthenticationInfo: { userName: 'ada', password: 'windows-secret', domain: 'lab' },
    formAuthenticationInfo: [
      { loginUrl: site.url('/login'), fieldName: 'pin', fieldValue: '4321' },
    ],
  });
  const admin = uniqueEmail('credentials-boss');
  await registerAccount(request, admin);
  grantAdmin(admin);
  const adminToken = await tokenFor(request, admin);

  await useToken(page, adminToken);
  await page.goto('/admin');
  await page.getByLabel("Owner's e-mail").fill(owner);
  await page.getByLabel("Owner's e-mail").press('Enter');
  await rowOf(page, done).getByRole('button', { name: 'Edit settings' }).click();
  const editor = page.getByRole('dialog');
  const optionsTab = editor.getByRole('tab', { name: 'Scan Options' });
  // (The dialog zooms in: a click while it moves can miss the tab.)
  await expect(async () => {
    await optionsTab.click();
    await expect(optionsTab).toHaveAttribute('aria-selected', 'true', { timeout: 500 });
  }).toPass();
  await expect(editor).toContainText('Sign-in credentials');
  await expect(editor).toContainText('Windows sign-in: ada (domain lab), password:');
  await expect(editor).toContainText('Form field pin at');
  await expect(editor.getByRole('button', { name: 'Windows password: Replace' })).toBeVisible();
  await expect(editor.getByRole('button', { name: 'Value of pin: Clear' })).toBeVisible();
  await expect(page.locator('body')).not.toContainText('windows-secret');
  await expect(page.locator('body')).not.toContainText('4321');

  await editor.getByRole('button', { name: 'Windows password: Clear' }).click();
  await expect(editor.getByRole('button', { name: 'Windows password: Set' })).toBeVisible();
  await editor.getByRole('button', { name: 'Save and requeue' }).click();
  await expect(page.getByText('Settings saved; the scan is requeued.')).toBeVisible();
  const settings = (await adminScan(request, adminToken, done))?.scanSettings as unknown as {
    windowsAuthenticationInfo: { passwordSet: boolean };
    formAuthenticationInfo: Array<{ fieldValueSet: boolean }>;
  };
  // The cleared password is gone; the form value, left alone, is kept.
  expect(settings.windowsAuthenticationInfo.passwordSet).toBe(false);
  expect(settings.formAuthenticationInfo[0]?.fieldValueSet).toBe(true);
});

test('a non-admin is refused on every admin screen and call', async ({ page, request }) => {
  const user = uniqueEmail('not-admin');
  await registerAccount(request, user);
  const token = await tokenFor(request, user);
  await useToken(page, token);
  await expect(page.getByRole('link', { name: 'Admin' })).toHaveCount(0);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/signin\?returnUrl=%2Fadmin$/);

  const headers = { authorization: `Bearer ${token}` };
  const calls: Array<[string, string, unknown?]> = [
    ['GET', '/api/admin/scans/'],
    ['GET', '/api/admin/scans/page'],
    ['PUT', '/api/admin/SetScanStateToFailed/x'],
    ['PUT', '/api/admin/Requeue/', { id: 'x' }],
    ['GET', '/api/admin/users'],
    ['PUT', '/api/admin/users/x/role', { admin: true }],
    ['PUT', '/api/admin/users/x/disabled', { disabled: true }],
    ['GET', '/api/admin/vouchers'],
    ['POST', '/api/admin/vouchers', { code: 'X', type: 2, value: 10 }],
    ['PUT', '/api/admin/vouchers/expire', { code: 'X' }],
    ['GET', '/api/admin/audit'],
    ['GET', '/api/admin/health'],
    ['GET', '/api/admin/outbox'],
  ];
  for (const [method, path, data] of calls) {
    const signedIn = await request.fetch(path, { method, headers, data });
    expect(signedIn.status(), `${method} ${path}`).toBe(403);
    const visitor = await request.fetch(path, { method, data });
    expect(visitor.status(), `${method} ${path} without a token`).toBe(401);
  }
});
