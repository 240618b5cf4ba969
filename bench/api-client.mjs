// The LinkAudit API as the server benchmarks call it (reports.mjs, load.mjs): JSON and form calls
// over an undici pool, a paid bench account, and waiting for a scan to end.
import { execFileSync } from 'node:child_process';
import { SERVER_MAIN, sleep } from './server-process.mjs';

/** The statuses after which a scan no longer changes (SPEC §4: complete, cancelled, failed …). */
const FINISHED_STATUSES = [1, 2, 3, 4, 10];

/** Whether a scan-list entry has finished. */
export const isFinishedScan = (scan) => FINISHED_STATUSES.includes(scan.status);

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** JSON calls that throw on any answer of 400 or more, with its first 200 characters. */
export function apiClient(pool) {
  const call = async (method, url, { token, body, form } = {}) => {
    const headers = {};
    if (token) headers.authorization = `Bearer ${token}`;
    let payload;
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(form).toString();
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await pool.request({ method, path: url, headers, body: payload });
    const text = await response.body.text();
    if (response.statusCode >= 400) {
      throw new Error(`${method} ${url}: ${response.statusCode} ${text.slice(0, 200)}`);
    }
    return text ? JSON.parse(text) : undefined;
  };
  return {
    get: (url, token) => call('GET', url, { token }),
    post: (url, body, token) => call('POST', url, { body, token }),
    put: (url, body, token) => call('PUT', url, { body, token }),
    delete: (url, token) => call('DELETE', url, { token }),
    form: (url, form) => call('POST', url, { form }),
  };
}

/** Registers `email` on the Enterprise plan (so no scan is cut by the Free plan); its token. */
export async function signUp(api, environment, email) {
  const password = 'bench-secret';
  await api.post('/api/account/register', {
    firstName: 'Bench',
    lastName: 'Mark',
    username: email,
    password,
    confirmPassword: password,
  });
  execFileSync(process.execPath, [SERVER_MAIN, 'plan', 'set', email, 'Enterprise'], {
    env: environment,
  });
  return signIn(api, email);
}

export async function signIn(api, email) {
  const answer = await api.form('/token', {
    grant_type: 'password',
    username: email,
    password: 'bench-secret',
  });
  return answer.access_token;
}

/** Polls the scan list until scan `id` has finished; its list entry. */
export async function waitForScan(api, token, id, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const scan = (await api.get('/api/ScanApi/Get', token)).find((item) => item.id === id);
    if (scan && isFinishedScan(scan)) return scan;
    if (Date.now() > deadline) throw new Error(`scan ${id} still ${JSON.stringify(scan)}`);
    await sleep(500);
  }
}

/**
 * Scans the bench site served on `sitePort` through the API, as the report benchmarks read it
 * (depth 3, URL limit `maxLinkAmount`, 50 threads; with `allRules`, anchors and every rule too);
 * the finished scan's list entry and how long the scan took.
 */
export async function scanBenchSite(
  api,
  token,
  sitePort,
  { maxLinkAmount = 100_000, allRules = true, extraSettings = {}, timeoutMs = 600_000 } = {},
) {
  const rules = allRules ? await api.get('/api/ScanRuleApi/', token) : [];
  const started = performance.now();
  const created = await api.post(
    '/api/ScanApi/',
    {
      scanSettings: {
        url: `http://127.0.0.1:${sitePort}/`,
        scanDepth: 3,
        scanLimitOption: 1,
        maxLinkAmount,
        maxThreadCount: 50,
        ...(allRules
          ? { checkAnchors: true, selectedRules: rules.map((rule) => rule.linkAuditorRuleID) }
          : {}),
        ...extraSettings,
      },
    },
    token,
  );
  const scan = await waitForScan(api, token, created.id, timeoutMs);
  return { scan, seconds: (performance.now() - started) / 1000 };
}
