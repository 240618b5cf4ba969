// The report screen in a real browser, on a report of more than 20,000 links.
//
// Starts the built server (packages/server/dist/main.js with the built web app, SQLite in a
// temporary DATA_DIR) as its own process, scans the generated 650-page bench site through the API
// (Enterprise plan, whole site: 22,068 links), then drives Debian's Chromium (playwright-core,
// CHROMIUM_PATH or /usr/bin/chromium) through the report screen and times what a user waits for:
// from the click (or the navigation) until the rows are on screen and no spinner is left. Each
// action is repeated (--repeats, a fresh page load each round) and reported as median and worst,
// with the longest main-thread task seen during the action (the Long Tasks API), which says
// whether the page stayed responsive while the rows arrived. Everything talks to 127.0.0.1.
//
//   npm run build && node bench/report-ui.mjs [--pages 650] [--repeats 5]
/* global window, document, MutationObserver -- the functions given to page.evaluate run in the browser */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { isFinishedScan } from './api-client.mjs';
import { ensureSite } from './generator.mjs';
import {
  benchServerEnvironment,
  freePort,
  SERVER_MAIN,
  sleep,
  startServer,
  stopServer,
} from './server-process.mjs';
import { startSiteServer } from './server.mjs';

const HERE = import.meta.dirname;
const SITES_DIR = path.join(HERE, '.sites');

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '650' },
    repeats: { type: 'string', default: '5' },
  },
});
const options = { pages: Number(values.pages), repeats: Number(values.repeats) };

async function api(origin, method, url, { token, body, form } = {}) {
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
  const response = await fetch(`${origin}${url}`, { method, headers, body: payload });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}

/** A paid account (no plan cap on the scan) signed in through the API; answers its token. */
async function signUp(origin, environment) {
  const email = 'bench-ui@example.com';
  const password = 'bench-secret';
  await api(origin, 'POST', '/api/account/register', {
    body: {
      firstName: 'Bench',
      lastName: 'Mark',
      username: email,
      password,
      confirmPassword: password,
    },
  });
  execFileSync(process.execPath, [SERVER_MAIN, 'plan', 'set', email, 'Enterprise'], {
    env: environment,
  });
  const answer = await api(origin, 'POST', '/token', {
    form: { grant_type: 'password', username: email, password },
  });
  return answer.access_token;
}

async function scanSite(origin, token, url) {
  const created = await api(origin, 'POST', '/api/ScanApi/', {
    token,
    body: { scanSettings: { url, scanDepth: 3 } },
  });
  const deadline = Date.now() + 600_000;
  for (;;) {
    const scans = await api(origin, 'GET', '/api/ScanApi/Get', { token });
    const scan = scans.find((item) => item.id === created.id);
    if (scan && isFinishedScan(scan)) return scan;
    if (Date.now() > deadline) throw new Error(`scan ${created.id} still ${JSON.stringify(scan)}`);
    await sleep(250);
  }
}

// ---- in the page -------------------------------------------------------------------------

/**
 * Runs in every page before its scripts: records long tasks (`__longTasks`, [start, duration]),
 * the time of the last click (`__clickAt`), and when the summary first showed its charts
 * (`__summaryAt`, from navigation start).
 */
function instrument() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      window.__longTasks.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
  document.addEventListener('click', () => (window.__clickAt = performance.now()), true);
  new MutationObserver(() => {
    window.__summaryAt ??=
      document.querySelectorAll('.report-summary canvas').length >= 3 &&
      document.querySelector('.report-stats')
        ? performance.now()
        : undefined;
  }).observe(document, { childList: true, subtree: true });
}

const active = '[role="tabpanel"][aria-hidden="false"]';

/**
 * True, and the time noted in `__settledAt`, once the screen shows what an action waits for:
 * - table: the active tab (`tab`, its key) with `rows` (or at least `minRows`) rows, the range
 *   text `range`, and no spinner;
 * - expanded: the first expanded group of the active tab showing its rows;
 * - collapsed: no expanded group visible.
 */
function settled({ active, kind, tab, range, rows, minRows }) {
  const pane = document.querySelector(active);
  let done = false;
  if (pane && kind === 'table') {
    const count = pane.querySelectorAll(':scope tbody tr.ant-table-row').length;
    done =
      (tab === undefined || pane.id.endsWith(`-panel-${tab}`)) &&
      !pane.querySelector('.ant-spin-spinning') &&
      (rows === undefined || count === rows) &&
      (minRows === undefined || count >= minRows) &&
      (range === undefined ||
        pane.querySelector('.ant-pagination-total-text')?.textContent === range);
  } else if (pane && kind === 'expanded') {
    const group = pane.querySelector('.ant-table-expanded-row');
    done =
      group !== null &&
      !group.querySelector('.ant-spin-spinning') &&
      group.querySelectorAll('tbody tr.ant-table-row').length > 0;
  } else if (pane && kind === 'collapsed') {
    done = [...pane.querySelectorAll('.ant-table-expanded-row')].every(
      (row) => row.offsetParent === null,
    );
  }
  if (done) window.__settledAt ??= performance.now();
  return done;
}

// ---- the measured actions ----------------------------------------------------------------

const settleTimeout = 120_000;

/**
 * Times one action in the page's own clock: from its last click (the option, for a select) to
 * the first animation frame showing the result; and the longest main-thread task meanwhile.
 * The wait starts before the action, so the harness's own latency is not counted.
 */
async function timed(page, action, expected) {
  const since = await page.evaluate(() => {
    window.__settledAt = undefined;
    return performance.now();
  });
  const waiting = page.waitForFunction(
    settled,
    { active, ...expected },
    { polling: 'raf', timeout: settleTimeout },
  );
  waiting.catch(() => {}); // awaited below; an early failure must not go unhandled
  await action();
  try {
    await waiting;
  } catch (error) {
    const state = await page.evaluate((selector) => {
      const pane = document.querySelector(selector);
      return {
        pane: pane?.id,
        spinning: pane?.querySelectorAll('.ant-spin-spinning').length,
        rows: pane?.querySelectorAll(':scope tbody tr.ant-table-row').length,
        range: pane?.querySelector('.ant-pagination-total-text')?.textContent,
      };
    }, active);
    throw new Error(`waited for ${JSON.stringify(expected)}, saw ${JSON.stringify(state)}`, {
      cause: error,
    });
  }
  return page.evaluate(
    (from) => ({
      ms: window.__settledAt - window.__clickAt,
      longest: Math.max(
        0,
        ...window.__longTasks.filter(([start]) => start >= from).map(([, d]) => d),
      ),
    }),
    since,
  );
}

/** Opening the report: from navigation start until the summary shows its charts. */
async function timedOpen(page, url) {
  await page.goto(url);
  await page.waitForFunction(() => window.__summaryAt !== undefined, null, {
    polling: 'raf',
    timeout: settleTimeout,
  });
  return page.evaluate(() => ({
    ms: window.__summaryAt,
    longest: Math.max(0, ...window.__longTasks.map(([, d]) => d)),
  }));
}

/**
 * Picks `option` in an antd select and waits until the select shows it. A click that lands while
 * the dropdown is still opening is lost now and then on a busy machine: it is tried again.
 */
async function pick(page, trigger, option) {
  for (let attempt = 1; ; attempt++) {
    await trigger.click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option })
      .first()
      .click();
    try {
      await trigger.filter({ hasText: option }).waitFor({ timeout: 3000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

const choose = (page, select, option) =>
  pick(
    page,
    page.locator('.ant-select', { has: page.getByRole('combobox', { name: select }) }),
    option,
  );

/** One round through the report screen on a fresh page; answers the timings by action. */
async function round(page, origin, scan, counts) {
  const { total, bad, pages, groups, notFound } = counts;
  const results = {};
  const measure = async (name, action, expected) => {
    results[name] = await timed(page, action, expected);
  };
  const table = (expected) => ({ kind: 'table', tab: 'link', ...expected });

  results['open report: summary and charts'] = await timedOpen(page, `${origin}/report/${scan.id}`);
  await measure(
    'Link tab: first rows (broken)',
    () => page.getByRole('tab', { name: 'Link' }).click(),
    table({ rows: 50, range: `1-50 of ${bad}` }),
  );
  await measure(
    'show all links (22k): first rows',
    () => choose(page, 'Show links', 'All links'),
    table({ rows: 50, range: `1-50 of ${total}` }),
  );
  await measure(
    'next page',
    () => page.locator(`${active} .ant-pagination-next`).click(),
    table({ rows: 50, range: `51-100 of ${total}` }),
  );
  const last = Math.ceil(total / 50);
  await measure(
    'jump to last page',
    () => page.locator(`${active} .ant-pagination-item[title="${last}"]`).click(),
    table({ range: `${(last - 1) * 50 + 1}-${total} of ${total}` }),
  );
  // The size changes on the last page, which stays the last page.
  const last200 = Math.ceil(total / 200);
  const onLast200 = table({
    rows: total - (last200 - 1) * 200,
    range: `${(last200 - 1) * 200 + 1}-${total} of ${total}`,
  });
  await measure(
    '200 rows a page',
    () => pick(page, page.locator(`${active} .ant-pagination-options .ant-select`), '200 / page'),
    onLast200,
  );
  await measure('switch to Page tab', () => page.getByRole('tab', { name: 'Page' }).click(), {
    kind: 'table',
    tab: 'page',
    rows: 50,
    range: `1-50 of ${pages}`,
  });
  await measure(
    'switch to Rule Validation tab',
    () => page.getByRole('tab', { name: 'Rule Validation' }).click(),
    { kind: 'table', tab: 'ruleResult' },
  );
  await measure(
    'switch to File Types tab',
    () => page.getByRole('tab', { name: 'File Types' }).click(),
    { kind: 'table', tab: 'fileType', minRows: 1 },
  );
  await measure(
    'switch back to Link tab',
    () => page.getByRole('tab', { name: 'Link' }).click(),
    onLast200,
  );
  await measure(
    'group by page',
    () => choose(page, 'Group by', 'Group by: Page'),
    table({ range: `1-${Math.min(200, groups)} of ${groups}` }),
  );
  await measure(
    'Expand All: rows of the first group',
    () => page.getByRole('button', { name: 'Expand All' }).click(),
    { kind: 'expanded' },
  );
  await measure('Collapse All', () => page.getByRole('button', { name: 'Collapse All' }).click(), {
    kind: 'collapsed',
  });
  await measure(
    'group by none (200 rows)',
    () => choose(page, 'Group by', 'Group by: None'),
    table({ rows: 200, range: `1-200 of ${total}` }),
  );
  await measure(
    'filter: Not Found',
    () => choose(page, 'Show category', 'Not Found ('),
    table({ range: `1-${Math.min(200, notFound)} of ${notFound}` }),
  );
  return results;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

async function main() {
  const { dir } = ensureSite(SITES_DIR, { pages: options.pages, seed: 1 });
  const site = await startSiteServer(dir);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'linkaudit-bench-report-ui-'));
  const port = await freePort();
  const environment = benchServerEnvironment(dataDir, port);
  const { child, origin } = await startServer(environment);
  let browser;
  try {
    const token = await signUp(origin, environment);
    const started = performance.now();
    const scan = await scanSite(origin, token, `http://127.0.0.1:${site.port}/`);
    const seconds = (performance.now() - started) / 1000;
    const link = (query) => api(origin, 'GET', `/api/report/link/${scan.id}?${query}`, { token });
    const counts = {
      total: (await link('status=all&pageSize=1')).total,
      bad: (await link('pageSize=1')).total,
      groups: (await link('status=all&groupBy=source&pageSize=1')).total,
      notFound: (await link('status=all&reason=Not%20Found&pageSize=1')).total,
      pages: (await api(origin, 'GET', `/api/report/page/${scan.id}?pageSize=1`, { token })).total,
    };
    console.log(
      `scan ${scan.status} in ${seconds.toFixed(1)} s: ${scan.totalLinks} links ` +
        `(${counts.total} listed), ${counts.bad} broken, ${counts.pages} pages, ` +
        `${counts.groups} source pages, ${counts.notFound} Not Found`,
    );

    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    await context.addInitScript(instrument);
    await context.addInitScript((value) => {
      localStorage.setItem('linkaudit.accessToken', value);
    }, token);

    const rounds = [];
    // One warm-up round (browser caches, server statements), then the measured ones.
    for (let index = 0; index <= options.repeats; index++) {
      const page = await context.newPage();
      const result = await round(page, origin, scan, counts);
      await page.close();
      if (index > 0) rounds.push(result);
    }

    console.log(
      `\nreport screen, Chromium ${browser.version()}, ${options.repeats} rounds after a warm-up`,
    );
    console.log(`${'action'.padEnd(38)} median ms   worst ms   longest task ms`);
    for (const name of Object.keys(rounds[0])) {
      const times = rounds.map((result) => result[name].ms);
      const tasks = rounds.map((result) => result[name].longest);
      console.log(
        `${name.padEnd(38)} ${median(times).toFixed(0).padStart(9)}  ${Math.max(...times)
          .toFixed(0)
          .padStart(9)}  ${Math.max(...tasks)
          .toFixed(0)
          .padStart(16)}`,
      );
    }
  } finally {
    await browser?.close();
    await stopServer(child);
    site.server.closeAllConnections();
    await new Promise((resolve) => site.server.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
