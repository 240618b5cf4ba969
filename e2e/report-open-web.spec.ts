import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { antSelect, chooseOption, finishedScan, signedInUser } from './helpers.js';

// Open-web verdicts in the report (issue 35), in English and Chinese: a page behind bot
// protection (999) and one needing a sign-in (401) could not be verified: the summary says how
// many, apart from the broken links, and the Link tab lists them with their cause; a deep link
// redirected to the home page is a working link with its own warning (a soft 404).

const answers: Record<string, [number, Record<string, string>]> = {
  '/profile': [999, {}],
  '/members': [401, { 'www-authenticate': 'Basic realm="members"' }],
  '/blog/2019/gone': [301, { location: '/' }],
  '/missing': [404, {}],
};
const home =
  '<!doctype html><html><head><title>Home</title></head><body>' +
  Object.keys(answers)
    .map((path) => `<a href="${path}">${path}</a>`)
    .join('\n') +
  '</body></html>';

let server: Server;
let origin: string;
test.beforeAll(async () => {
  server = createServer((request, response) => {
    const [status, headers] = answers[request.url ?? '/'] ?? [200, {}];
    response.writeHead(status, { 'content-type': 'text/html', ...headers }).end(home);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test('links that could not be verified are counted apart and listed with their cause, in both languages', async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(90_000);
  const { token } = await signedInUser(page, request, 'open-web');
  const scanId = await finishedScan(request, token, { url: `${origin}/`, scanDepth: 1 });

  await page.goto(`/report/${scanId}`);
  await expect(
    page.getByText('2 addresses could not be verified (bot protection, rate limits'),
  ).toBeVisible();
  await page.getByRole('tab', { name: 'Link' }).click();
  const links = page.getByRole('tabpanel', { name: 'Link' });
  await expect(links.getByRole('row').filter({ hasText: `${origin}/missing` })).toBeVisible();
  await expect(links.getByRole('row').filter({ hasText: `${origin}/profile` })).toHaveCount(0);

  await chooseOption(page, antSelect(page, 'Show links'), 'Could not be verified');
  await expect(links.getByRole('row').filter({ hasText: `${origin}/profile` })).toContainText(
    'Bot protection',
  );
  await expect(links.getByRole('row').filter({ hasText: `${origin}/members` })).toContainText(
    'Sign-in needed',
  );
  await chooseOption(page, antSelect(page, 'Show links'), 'Soft 404s (working links)');
  await expect(
    links.getByRole('row').filter({ hasText: `${origin}/blog/2019/gone` }),
  ).toContainText('Soft 404');

  await context.addCookies([{ name: 'linkaudit_lang', value: 'zh-CN', url: page.url() }]);
  await page.goto(`/report/${scanId}`);
  await expect(page.getByText('2 个地址无法核实')).toBeVisible();
  await page.getByRole('tab', { name: '链接', exact: true }).click();
  const zhLinks = page.getByRole('tabpanel', { name: '链接', exact: true });
  await chooseOption(page, antSelect(page, '显示链接'), '无法核实');
  await expect(zhLinks.getByRole('row').filter({ hasText: `${origin}/profile` })).toContainText(
    '反爬虫防护',
  );
  await expect(zhLinks.getByRole('row').filter({ hasText: `${origin}/members` })).toContainText(
    '需要登录',
  );
});
