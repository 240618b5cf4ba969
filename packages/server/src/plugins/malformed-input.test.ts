import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages, scanMessages } from '@linkaudit/core';
import { apiClient, type ApiClient } from '../test-support/api-client.js';
import { signUp } from '../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../test-support/test-server.js';
import { runPlanCommand } from '../modules/accounts/plan-command.js';

/**
 * Issue 21: a table of malformed inputs against every route of the server, sent over HTTP. Each
 * must answer 4xx in SPEC §8's shape (400 with `modelState` naming the field where the input is
 * a value we validate), never 5xx, and write nothing.
 */

type Caller = 'none' | 'user' | 'admin';

interface Probe {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** `{scan}` and `{schedule}` are replaced with real ids of the test user. */
  path: string;
  as?: Caller;
  /** Sent as JSON; use `raw` for anything else. */
  json?: unknown;
  raw?: string;
  contentType?: string;
  /** The status expected (400 unless said otherwise). */
  status?: number;
  /** A 400 with `modelState` carrying this field. */
  field?: string;
  /** …whose messages include this one (SPEC §5/§8 texts where SPEC has one). */
  fieldMessage?: string;
  /** POST /token answers OAuth 2's `{ error, error_description }` instead. */
  oauth?: boolean;
}

const longUrl = `http://example.com/${'a'.repeat(3000)}`;
const longId = 'x'.repeat(100);
const settings = (extra: Record<string, unknown>) => ({
  scanSettings: { url: 'http://example.com/', ...extra },
});
const manyExclusions = Array.from({ length: 20_000 }, (_, index) => ({
  link: `http://example.com/${index}`,
}));
const invalid = 'The request is invalid.';

const scanProbes: Probe[] = [
  { name: 'null body', method: 'POST', path: '/api/ScanApi/', json: null, field: 'request' },
  { name: 'array body', method: 'POST', path: '/api/ScanApi/', json: [], field: 'request' },
  { name: 'string body', method: 'POST', path: '/api/ScanApi/', json: 'scan', field: 'request' },
  { name: 'number body', method: 'POST', path: '/api/ScanApi', json: 42, field: 'request' },
  {
    name: 'text/plain body',
    method: 'POST',
    path: '/api/ScanApi/',
    raw: 'http://example.com/',
    contentType: 'text/plain',
    field: 'request',
  },
  { name: 'no body', method: 'POST', path: '/api/ScanApi/', field: 'request' },
  {
    name: 'broken JSON',
    method: 'POST',
    path: '/api/ScanApi/',
    raw: '{"scanSettings":',
    contentType: 'application/json',
    field: 'request',
  },
  {
    name: 'empty JSON body',
    method: 'POST',
    path: '/api/ScanApi/',
    raw: '',
    contentType: 'application/json',
    field: 'request',
  },
  {
    name: 'XML body',
    method: 'POST',
    path: '/api/ScanApi/',
    raw: '<scan/>',
    contentType: 'application/xml',
    status: 415,
  },
  {
    name: '2 MB body',
    method: 'POST',
    path: '/api/ScanApi/',
    json: settings({ junk: 'x'.repeat(2_000_000) }),
    status: 413,
  },
  {
    name: 'scanDepth 9',
    method: 'POST',
    path: '/api/ScanApi/',
    json: settings({ scanDepth: 9 }),
    field: 'scanSettings.scanDepth',
  },
  {
    name: 'scanDepth as text',
    method: 'POST',
    path: '/api/ScanApi/',
    json: settings({ scanDepth: '3' }),
    field: 'scanSettings.scanDepth',
  },
  {
    name: 'maxLinkAmount "abc"',
    method: 'POST',
    path: '/api/ScanApi/',
    json: settings({ maxLinkAmount: 'abc' }),
    field: 'scanSettings.maxLinkAmount',
  },
  {
    name: 'maxLinkAmount -1',
    method: 'POST',
    path: '/api/ScanApi/',
    json: settings({ maxLinkAmount: -1 }),
    field: 'scanSettings.maxLinkAmount',
  },
  {
    name: 'maxLinkAmount 1.5',
    method: 'POST',
    path: '/api/ScanApi/',
    json: settings({ maxLinkAmount: 1.5 }),
    field: 'scanSettings.maxLinkAmount',
  },
  {
    name: 'maxLinkAmount 1e12',
    method: 'POST',
    path: '/api/ScanApi/',
    json: settings({ maxLinkAmount: 1e12 }),
    field: 'scanSettings.maxLinkAmount',
  },
  {
    name: 'maxDepth 0',
    method: 'POST',
    path: '/api/ScanApi/',
    json: settings({ maxDepth: 0 }),
    field: 'scanSettings.maxDepth',
  },
  {
    name: 'timeoutAfter 0',
    method: 'POST',
    path: '/api/ScanApi/',
    json: settings({ timeoutAfter: 0 }),
    field: 'scanSettings.timeoutAfter',
  },
  {
    name: 'maxThreadCount 100000',
    method: 'POST',
    path: '/api/ScanApi/',
    json: settings({ maxThreadCount: 100_000 }),
    field: 'scanSettings.maxThreadCount',
  },
  {
    name: 'checkImages "yes"',
    method: 'POST',
    path: '/api/ScanApi/',
    json: settings({ checkImages: 'yes' }),
    field: 'scanSettings.checkImages',
  },
  {
    name: 'scanLimitOption 3',
    method: 'POST',
    path: '/api/ScanApi/',
    json: settings({ scanLimitOption: 3 }),
    field: 'scanSettings.scanLimitOption',
  },
  {
    name: 'selectedRules of text',
    method: 'POST',
    path: '/api/ScanApi/',
    json: settings({ selectedRules: ['a'] }),
    field: 'scanSettings.selectedRules.0',
  },
  {
    name: 'selectedRules not a list',
    method: 'POST',
    path: '/api/ScanApi/',
    json: settings({ selectedRules: 'all' }),
    field: 'scanSettings.selectedRules',
  },
  {
    name: '20,000 exclusions',
    method: 'POST',
    path: '/api/ScanApi/',
    json: settings({ excludeLinks: manyExclusions }),
    field: 'scanSettings.excludeLinks',
  },
  {
    name: 'exclusion link a number',
    method: 'POST',
    path: '/api/ScanApi/',
    json: settings({ excludeLinks: [{ link: 5 }] }),
    field: 'scanSettings.excludeLinks.0.link',
  },
  {
    name: 'exclusion null',
    method: 'POST',
    path: '/api/ScanApi/',
    json: settings({ excludeLinks: [null] }),
    field: 'scanSettings.excludeLinks.0',
  },
  {
    name: '3,000-character URL in the settings',
    method: 'POST',
    path: '/api/ScanApi/',
    json: settings({ url: longUrl }),
    field: 'scanSettings.url',
    fieldMessage: scanMessages.invalidUrl,
  },
  {
    name: '3,000-character URL at the top',
    method: 'POST',
    path: '/api/ScanApi/',
    json: { url: longUrl },
    field: 'url',
    fieldMessage: scanMessages.invalidUrl,
  },
  {
    name: 'URL a number',
    method: 'POST',
    path: '/api/ScanApi/',
    json: { scanSettings: { url: 123 } },
    field: 'scanSettings.url',
    fieldMessage: scanMessages.invalidUrl,
  },
  {
    name: 'scanSettings null',
    method: 'POST',
    path: '/api/ScanApi/',
    json: { url: 'http://example.com/', scanSettings: null },
    field: 'scanSettings',
  },
  {
    name: 'scanSettings text',
    method: 'POST',
    path: '/api/ScanApi/',
    json: { scanSettings: 'deep' },
    field: 'scanSettings',
  },
  {
    name: 'windowsAuthenticationInfo a number',
    method: 'POST',
    path: '/api/ScanApi/',
    json: settings({ windowsAuthenticationInfo: 5 }),
    field: 'scanSettings.windowsAuthenticationInfo',
  },
  {
    name: 'enableSchedule as text',
    method: 'POST',
    path: '/api/ScanApi/',
    json: { ...settings({}), enableSchedule: 'true' },
    field: 'enableSchedule',
  },
  {
    name: 'schedule frequency 9',
    method: 'POST',
    path: '/api/ScanApi/',
    json: { ...settings({}), enableSchedule: true, scheduleSettings: { frequency: 9 } },
    field: 'scheduleSettings.frequency',
  },
  {
    name: 'schedule hour 25:00',
    method: 'POST',
    path: '/api/ScanApi/',
    json: { ...settings({}), enableSchedule: true, scheduleSettings: { dailyHour: '25:00' } },
    field: 'scheduleSettings.dailyHour',
  },
  {
    name: 'schedule offset as text',
    method: 'POST',
    path: '/api/ScanApi/',
    json: { ...settings({}), enableSchedule: true, scheduleSettings: { userTimeZoneOffset: 'x' } },
    field: 'scheduleSettings.userTimeZoneOffset',
  },
  { name: 'cancel without id', method: 'DELETE', path: '/api/ScanApi/', field: 'id' },
  { name: 'cancel with empty id', method: 'DELETE', path: '/api/ScanApi/?id=', field: 'id' },
  {
    name: 'cancel with long id',
    method: 'DELETE',
    path: `/api/ScanApi/?id=${longId}`,
    field: 'id',
  },
  { name: 'cancel with NUL id', method: 'DELETE', path: '/api/ScanApi/?id=%00', field: 'id' },
  { name: 'trash without id', method: 'DELETE', path: '/api/ScanApi/Trash', field: 'id' },
  {
    name: 'trash with two ids',
    method: 'DELETE',
    path: '/api/ScanApi/Trash?id=a&id=b',
    field: 'id',
  },
  {
    name: 'live summary, long id',
    method: 'GET',
    path: `/reports/BrokenLinksSummary/${longId}`,
    field: 'id',
  },
  {
    name: 'live summary, NUL id',
    method: 'GET',
    path: '/reports/BrokenLinksSummary/%00',
    field: 'id',
  },
  {
    name: 'live summary, broken escape',
    method: 'GET',
    path: '/reports/BrokenLinksSummary/%E0%A4%A',
  },
  { name: 'rules, wrong verb', method: 'POST', path: '/api/ScanRuleApi/', json: {}, status: 404 },
];

const scheduleProbes: Probe[] = [
  {
    name: 'schedule null body',
    method: 'POST',
    path: '/api/ScanApi/ScheduleScan',
    json: null,
    field: 'request',
  },
  {
    name: 'schedule text/plain body',
    method: 'POST',
    path: '/api/ScanApi/ScheduleScan',
    raw: 'pause',
    contentType: 'text/plain',
    field: 'request',
  },
  {
    name: 'schedule unknown action',
    method: 'POST',
    path: '/api/ScanApi/ScheduleScan',
    json: { id: '{schedule}', action: 'explode' },
    field: 'action',
  },
  {
    name: 'schedule id a number',
    method: 'POST',
    path: '/api/ScanApi/ScheduleScan',
    json: { id: 5, action: 'pause' },
    field: 'id',
  },
  {
    name: 'schedule monthly day 40',
    method: 'POST',
    path: '/api/ScanApi/ScheduleScan',
    json: { id: '{schedule}', action: 'update', scheduleSettings: { monthlyDay: 40 } },
    field: 'scheduleSettings.monthlyDay',
  },
  {
    name: 'schedule 3,000-character URL',
    method: 'POST',
    path: '/api/ScanApi/ScheduleScan',
    json: { scanSettings: { url: longUrl } },
    field: 'scanSettings.url',
    fieldMessage: scanMessages.invalidUrl,
  },
  {
    name: 'schedule status as text',
    method: 'POST',
    path: '/api/ScanApi/ScheduleScan',
    json: { id: '{schedule}', status: 'paused' },
    field: 'status',
  },
  {
    name: 'schedule isDeleted as text',
    method: 'POST',
    path: '/api/ScanApi/ScheduleScan',
    json: { id: '{schedule}', isDeleted: 'yes' },
    field: 'isDeleted',
  },
  {
    name: 'schedule 20,000 exclusions',
    method: 'POST',
    path: '/api/ScanApi/ScheduleScan',
    json: { id: '{schedule}', action: 'update', ...settings({ excludeLinks: manyExclusions }) },
    field: 'scanSettings.excludeLinks',
  },
  {
    name: 'runs, long id',
    method: 'GET',
    path: `/api/ScanApi/ScheduledRuns/${longId}`,
    field: 'id',
  },
  { name: 'runs, NUL id', method: 'GET', path: '/api/ScanApi/ScheduledRuns/%00', field: 'id' },
  {
    name: 'run now, long id',
    method: 'POST',
    path: `/api/ScanApi/ScheduledRuns/${longId}`,
    field: 'id',
  },
  { name: 'run now, NUL id', method: 'POST', path: '/api/ScanApi/ScheduledRuns/%00', field: 'id' },
];

const reportTabs = ['link', 'page', 'ruleResult', 'fileType'] as const;
const reportProbes: Probe[] = [
  ...reportTabs.flatMap((tab): Probe[] => [
    {
      name: `${tab} sortBy=constructor`,
      method: 'GET',
      path: `/api/report/${tab}/{scan}?sortBy=constructor`,
      field: 'sortBy',
    },
    {
      name: `${tab} sortBy=__proto__`,
      method: 'GET',
      path: `/api/report/${tab}/{scan}?sortBy=__proto__`,
      field: 'sortBy',
    },
    {
      name: `${tab} CSV sortBy=toString`,
      method: 'GET',
      path: `/api/report/${tab}/{scan}?format=csv&sortBy=toString`,
      field: 'sortBy',
    },
    { name: `${tab} long id`, method: 'GET', path: `/api/report/${tab}/${longId}`, field: 'id' },
    { name: `${tab} NUL id`, method: 'GET', path: `/api/report/${tab}/%00`, field: 'id' },
  ]),
  {
    name: 'link sortBy=hasOwnProperty',
    method: 'GET',
    path: '/api/report/link/{scan}?sortBy=hasOwnProperty',
    field: 'sortBy',
  },
  { name: 'link page 0', method: 'GET', path: '/api/report/link/{scan}?page=0', field: 'page' },
  { name: 'link page abc', method: 'GET', path: '/api/report/link/{scan}?page=abc', field: 'page' },
  {
    name: 'link page twice',
    method: 'GET',
    path: '/api/report/link/{scan}?page=1&page=2',
    field: 'page',
  },
  {
    name: 'link pageSize 100000',
    method: 'GET',
    path: '/api/report/link/{scan}?pageSize=100000',
    field: 'pageSize',
  },
  {
    name: 'link sortOrder sideways',
    method: 'GET',
    path: '/api/report/link/{scan}?sortOrder=sideways',
    field: 'sortOrder',
  },
  {
    name: 'link status zzz',
    method: 'GET',
    path: '/api/report/link/{scan}?status=zzz',
    field: 'status',
  },
  {
    name: 'link groupBy __proto__',
    method: 'GET',
    path: '/api/report/link/{scan}?groupBy=__proto__',
    field: 'groupBy',
  },
  {
    name: 'link format xml',
    method: 'GET',
    path: '/api/report/link/{scan}?format=xml',
    field: 'format',
  },
  {
    name: 'link 5,000-character target',
    method: 'GET',
    path: `/api/report/link/{scan}?target=${'t'.repeat(5000)}`,
    field: 'target',
  },
  {
    name: 'rule category abc',
    method: 'GET',
    path: '/api/report/ruleResult/{scan}?category=abc',
    field: 'category',
  },
  {
    name: 'rule CSV category abc',
    method: 'GET',
    path: '/api/report/ruleResult/{scan}?category=abc&format=csv',
    field: 'category',
  },
  { name: 'summary long id', method: 'GET', path: `/api/report/summary/${longId}`, field: 'id' },
  { name: 'summary NUL id', method: 'GET', path: '/api/report/summary/%00', field: 'id' },
  {
    name: 'sample id, wrong verb',
    method: 'POST',
    path: '/api/report/SampleSiteScanId',
    json: {},
    status: 404,
  },
];

const adminProbes: Probe[] = [
  { name: 'requeue, empty body', method: 'PUT', path: '/api/admin/Requeue/', field: 'request' },
  {
    name: 'requeue, null',
    method: 'PUT',
    path: '/api/admin/Requeue/',
    json: null,
    field: 'request',
  },
  { name: 'requeue, {}', method: 'PUT', path: '/api/admin/Requeue', json: {}, field: 'id' },
  {
    name: 'requeue, id a number',
    method: 'PUT',
    path: '/api/admin/Requeue/',
    json: { id: 5 },
    field: 'id',
  },
  {
    name: 'requeue, long id',
    method: 'PUT',
    path: '/api/admin/Requeue/',
    json: { id: longId },
    field: 'id',
  },
  {
    name: 'requeue, NUL id',
    method: 'PUT',
    path: '/api/admin/Requeue/',
    json: { id: '\u0000' },
    field: 'id',
  },
  {
    name: 'requeue, scanDepth 9',
    method: 'PUT',
    path: '/api/admin/Requeue/',
    json: { id: '{scan}', scanSettings: { scanDepth: 9 } },
    field: 'scanSettings.scanDepth',
  },
  {
    name: 'requeue, 3,000-character URL',
    method: 'PUT',
    path: '/api/admin/Requeue/',
    json: { id: '{scan}', scanSettings: { url: longUrl } },
    field: 'scanSettings.url',
    fieldMessage: scanMessages.invalidUrl,
  },
  {
    name: 'requeue, text/plain',
    method: 'PUT',
    path: '/api/admin/Requeue/',
    raw: '{scan}',
    contentType: 'text/plain',
    field: 'request',
  },
  {
    name: 'set failed, long id',
    method: 'PUT',
    path: `/api/admin/SetScanStateToFailed/${longId}`,
    field: 'id',
  },
  {
    name: 'set failed, NUL id',
    method: 'PUT',
    path: '/api/admin/SetScanStateToFailed/%00',
    field: 'id',
  },
  { name: 'scans, wrong verb', method: 'DELETE', path: '/api/admin/scans/', status: 404 },
].map((probe): Probe => ({ ...probe, as: 'admin' }) as Probe);

const accountProbes: Probe[] = [
  {
    name: 'register null',
    method: 'POST',
    path: '/api/account/register',
    as: 'none',
    json: null,
    field: 'request',
  },
  {
    name: 'register {}',
    method: 'POST',
    path: '/api/account/register',
    as: 'none',
    json: {},
    field: 'username',
    fieldMessage: accountMessages.required,
  },
  {
    name: 'register text/plain',
    method: 'POST',
    path: '/api/account/register',
    as: 'none',
    raw: 'me@example.com',
    contentType: 'text/plain',
    field: 'request',
  },
  {
    name: 'register 3,000-character address',
    method: 'POST',
    path: '/api/account/register',
    as: 'none',
    json: {
      firstName: 'A',
      lastName: 'B',
      username: `${'a'.repeat(3000)}@example.com`,
      password: 'secret1',
      confirmPassword: 'secret1',
    },
    field: 'username',
  },
  {
    name: 'register NUL in a name',
    method: 'POST',
    path: '/api/account/register',
    as: 'none',
    json: {
      firstName: 'A\u0000',
      lastName: 'B',
      username: 'nul.name@example.com',
      password: 'secret1',
      confirmPassword: 'secret1',
    },
    field: 'firstName',
  },
  {
    name: 'register names as numbers',
    method: 'POST',
    path: '/api/account/register',
    as: 'none',
    json: {
      firstName: 1,
      lastName: 2,
      username: 'numbers@example.com',
      password: 'secret1',
      confirmPassword: 'secret1',
    },
    field: 'firstName',
    fieldMessage: accountMessages.required,
  },
  {
    name: 'token, JSON null',
    method: 'POST',
    path: '/token',
    as: 'none',
    json: null,
    oauth: true,
  },
  {
    name: 'token, text/plain',
    method: 'POST',
    path: '/token',
    as: 'none',
    raw: 'grant_type=password',
    contentType: 'text/plain',
    oauth: true,
  },
  {
    name: 'token, repeated user name',
    method: 'POST',
    path: '/token',
    as: 'none',
    raw: 'grant_type=password&username=a@example.com&username=b@example.com&password=x',
    contentType: 'application/x-www-form-urlencoded',
    oauth: true,
  },
  {
    name: 'token, NUL in the user name',
    method: 'POST',
    path: '/token',
    as: 'none',
    raw: 'grant_type=password&username=a%00b@example.com&password=secret1',
    contentType: 'application/x-www-form-urlencoded',
    oauth: true,
  },
  {
    name: 'token, grant type a list',
    method: 'POST',
    path: '/token',
    as: 'none',
    json: { grant_type: ['password'], username: 'a@example.com', password: 'x' },
    oauth: true,
  },
  {
    name: 'confirm e-mail without query',
    method: 'GET',
    path: '/api/account/confirmEmail',
    as: 'none',
    field: 'code',
    fieldMessage: accountMessages.required,
  },
  {
    name: 'confirm e-mail, NUL user id',
    method: 'GET',
    path: '/api/account/confirmEmail?code=abc&userId=%00',
    as: 'none',
    field: 'userId',
  },
  {
    name: 'forgot password, address a number',
    method: 'POST',
    path: '/api/account/forgotpassword',
    as: 'none',
    json: { email: 5 },
    field: 'email',
    fieldMessage: accountMessages.required,
  },
  {
    name: 'forgot password, NUL in the address',
    method: 'POST',
    path: '/api/account/forgotpassword',
    as: 'none',
    json: { email: 'a\u0000@example.com' },
    field: 'email',
  },
  {
    name: 'reset password {}',
    method: 'POST',
    path: '/api/account/resetpassword',
    as: 'none',
    json: {},
    field: 'code',
    fieldMessage: accountMessages.required,
  },
  {
    name: 'reset password, NUL code',
    method: 'POST',
    path: '/api/account/resetpassword',
    as: 'none',
    json: {
      email: 'a@example.com',
      password: 'secret1',
      confirmPassword: 'secret1',
      code: '\u0000',
    },
    field: 'code',
  },
  {
    name: 'change password, a list',
    method: 'POST',
    path: '/api/account/changePassword',
    json: [],
    field: 'request',
  },
  {
    name: 'change password, numbers',
    method: 'POST',
    path: '/api/account/changePassword',
    json: { oldPassword: 1, newPassword: 2, confirmPassword: 2 },
    field: 'newPassword',
  },
  {
    name: 'external logins, generateState maybe',
    method: 'GET',
    path: '/api/account/externalLogins?returnUrl=/&generateState=maybe',
    as: 'none',
    field: 'generateState',
  },
  {
    name: 'external logins, 3,000-character return address',
    method: 'GET',
    path: `/api/account/externalLogins?returnUrl=${longUrl}`,
    as: 'none',
    field: 'returnUrl',
  },
  {
    name: 'manage info, generateState maybe',
    method: 'GET',
    path: '/api/account/manageInfo?returnUrl=/&generateState=maybe',
    field: 'generateState',
  },
  {
    name: 'external login start without query',
    method: 'GET',
    path: '/api/account/externalLogin',
    as: 'none',
    field: 'provider',
  },
  {
    name: 'external login start, long provider',
    method: 'GET',
    path: `/api/account/externalLogin?provider=${longId}&redirect_uri=/`,
    as: 'none',
    field: 'provider',
  },
  {
    name: 'external callback, unknown provider',
    method: 'GET',
    path: '/api/account/externalLogin/callback/nobody?code=x&state=y',
    as: 'none',
  },
  {
    name: 'register external, null',
    method: 'POST',
    path: '/api/account/registerExternal',
    json: null,
    field: 'request',
  },
  {
    name: 'add external login {}',
    method: 'POST',
    path: '/api/account/addExternalLogin',
    json: {},
    field: 'externalAccessToken',
    fieldMessage: accountMessages.required,
  },
  {
    name: 'remove login, provider a number',
    method: 'POST',
    path: '/api/account/removeLogin',
    json: { loginProvider: 5, providerKey: 'x' },
    field: 'loginProvider',
  },
  {
    name: 'remove login, text/plain',
    method: 'POST',
    path: '/api/account/removeLogin',
    raw: 'VideoSite',
    contentType: 'text/plain',
    field: 'request',
  },
  {
    name: 'user info, malformed token',
    method: 'GET',
    path: '/api/account/userInfo',
    as: 'none',
    status: 401,
  },
];

const systemProbes: Probe[] = [
  {
    name: 'server version, wrong verb',
    method: 'POST',
    path: '/api/ServerVersion',
    json: {},
    status: 404,
  },
  { name: 'health check, wrong verb', method: 'DELETE', path: '/healthcheck', status: 404 },
  { name: 'hub without upgrade', method: 'GET', path: '/hubs/scans?access_token=x', as: 'none' },
];

const malformedInputProbes: Probe[] = [
  ...scanProbes,
  ...scheduleProbes,
  ...reportProbes,
  ...adminProbes,
  ...accountProbes,
  ...systemProbes,
];

/** Tables a bad request must leave alone, with every row compared before and after. */
const watchedTables = [
  'users',
  'local_logins',
  'external_logins',
  'account_codes',
  'revoked_tokens',
  'external_login_requests',
  'pending_external_logins',
  'scans',
  'schedules',
] as const;

describe.each(testDialects())('malformed input over HTTP (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  const tokens: Record<Caller, string | undefined> = { none: undefined, user: '', admin: '' };
  const ids = { scan: '', schedule: '' };

  beforeAll(async () => {
    // No workers: the scan stays queued, so any change to the tables comes from a probe.
    server = await startTestServer(dialect, {
      WORKER_CONCURRENCY: '0',
      ADMIN_EMAILS: `chief-${dialect}@example.com`,
    });
    api = apiClient(server.baseUrl);
    const user = await signUp(api);
    tokens.user = user.token;
    tokens.admin = (await signUp(api, 'chief', `chief-${dialect}@example.com`)).token;
    await runPlanCommand(server.database.db, ['set', user.email, 'Premium']);
    // A public address we never fetch (no workers): example.com resolves to public addresses.
    const scan = await api.post(
      '/api/ScanApi/',
      { scanSettings: { url: 'http://93.184.215.14/' } },
      tokens.user,
    );
    expect(scan.status, JSON.stringify(scan.body)).toBe(200);
    ids.scan = String(scan.body.id);
    const schedule = await api.post(
      '/api/ScanApi/ScheduleScan',
      { scanSettings: { url: 'http://93.184.215.14/' }, scheduleSettings: { frequency: 1 } },
      tokens.user,
    );
    expect(schedule.status, JSON.stringify(schedule.body)).toBe(200);
    ids.schedule = String(schedule.body.id);
  });
  afterAll(async () => {
    await server.stop();
  });

  async function snapshot(): Promise<Record<string, unknown[]>> {
    const tables: Record<string, unknown[]> = {};
    for (const table of watchedTables) {
      const rows = await server.database.db.selectFrom(table).selectAll().execute();
      tables[table] = rows.map((row) => JSON.stringify(row)).sort();
    }
    return tables;
  }

  function fill(text: string): string {
    return text.replaceAll('{scan}', ids.scan).replaceAll('{schedule}', ids.schedule);
  }

  async function send(probe: Probe): Promise<{ status: number; text: string }> {
    const caller = probe.as ?? 'user';
    const headers: Record<string, string> = {};
    const token = tokens[caller];
    if (token) headers.authorization = `Bearer ${token}`;
    else if (probe.path === '/api/account/userInfo') headers.authorization = 'Bearer not.a.token';
    let body: string | undefined;
    if (probe.raw !== undefined) {
      body = fill(probe.raw);
      if (probe.contentType) headers['content-type'] = probe.contentType;
    } else if ('json' in probe) {
      body = fill(JSON.stringify(probe.json));
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${server.baseUrl}${fill(probe.path)}`, {
      method: probe.method,
      headers,
      body,
      redirect: 'manual',
    });
    return { status: response.status, text: await response.text() };
  }

  it(`answers each of the ${malformedInputProbes.length} probes 4xx in SPEC's shape and writes nothing`, async () => {
    const before = await snapshot();
    const failures: string[] = [];
    let serverErrors = 0;
    for (const probe of malformedInputProbes) {
      const { status, text } = await send(probe);
      if (status >= 500) serverErrors += 1;
      const problem = checkAnswer(probe, status, text);
      if (problem) failures.push(`${probe.method} ${probe.name}: ${problem}`);
    }
    expect(failures, `${serverErrors} answers of 500 or more`).toEqual([]);
    expect(serverErrors).toBe(0);
    expect(await snapshot()).toEqual(before);
  });
});

/** What is wrong with an answer, or undefined when it is what the probe expects. */
function checkAnswer(probe: Probe, status: number, text: string): string | undefined {
  const expected = probe.status ?? (probe.field || probe.oauth ? 400 : undefined);
  const shown = `${status} ${text.slice(0, 300)}`;
  if (status >= 500) return `server error: ${shown}`;
  if (expected !== undefined && status !== expected) return `expected ${expected}, got ${shown}`;
  if (status < 400 && !(status >= 300 && probe.path.includes('/callback/'))) {
    return `expected a refusal, got ${shown}`;
  }
  if (status >= 300 && status < 400) return undefined; // the external callback redirects with #error
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return `not JSON: ${shown}`;
  }
  if (probe.oauth) {
    return typeof body.error === 'string' && typeof body.error_description === 'string'
      ? undefined
      : `not OAuth's error shape: ${shown}`;
  }
  if (typeof body.message !== 'string' || body.message === '') return `no message: ${shown}`;
  if (/at .*\.(ts|js):\d+|stack|ZodError|Kysely|SQLITE|syntax/i.test(text)) {
    return `internal details: ${shown}`;
  }
  if (!probe.field) return undefined;
  const modelState = body.modelState as Record<string, unknown> | undefined;
  const messages = modelState?.[probe.field];
  if (body.message !== invalid) return `message is not '${invalid}': ${shown}`;
  if (!Array.isArray(messages) || messages.length === 0) {
    return `no modelState.${probe.field}: ${shown}`;
  }
  if (!messages.every((message) => typeof message === 'string' && message !== '')) {
    return `empty messages: ${shown}`;
  }
  if (probe.fieldMessage && !messages.includes(probe.fieldMessage)) {
    return `modelState.${probe.field} lacks '${probe.fieldMessage}': ${shown}`;
  }
  return undefined;
}
