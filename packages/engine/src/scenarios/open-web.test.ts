// External hosts that push back (issue 35): a rate limiter with Retry-After (seconds and HTTP
// date), one asking for an hour, bot protection (robots refused, challenge pages, 999), HEAD
// refused or hanging, a reset then OK, a slow host, soft 404s, a login wall, sign-in, a long
// redirect chain, bad certificates, and truly broken links beside them. With the engine's default
// settings nothing that works is broken, nothing broken is missed, every blocked link is
// Unverified with its reason, and no request reaches a host inside a Retry-After it announced.
import { FailureReason, ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineDefaults } from '../options.js';
import {
  byMethod,
  collectScan,
  connectionReset,
  createLookup,
  htmlPage,
  linksPage,
  redirect,
  sequence,
  startTestSite,
  statusOnly,
  testCertificates,
  type Route,
  type TestSite,
} from '../test-support/index.js';
import { rateLimiter, type RateLimiter } from '../test-support/rate-limiter.js';

const names = [
  'site.test',
  'code.test',
  'dated.test',
  'patience.test',
  'shy.test',
  'guarded.test',
  'social.test',
  'heads.test',
  'flaky.test',
  'slow.test',
  'soft.test',
  'chain.test',
  'gone.test',
  'selfsigned.test',
];
const lookup = createLookup(names);
const certificates = testCertificates(['selfsigned.test']);

/** 403 to user agents that say they are robots, as many sites' firewalls answer. */
const robotsRefused: Route = {
  handler: (request, response) => {
    const robot = /bot|crawl|spider/i.test(request.headers['user-agent'] ?? '');
    if (robot) response.writeHead(403, { 'content-type': 'text/html' }).end('Forbidden');
    else response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Docs</title>');
  },
};

/** A 503 page asking to prove one is human, whatever the user agent. */
const automatedAccessPage: Route = {
  status: 503,
  headers: { 'content-type': 'text/html' },
  body: htmlPage(
    '<h1>Automated access detected</h1><p>Please complete the CAPTCHA to continue.</p>',
    '<title>Are you a robot?</title>',
  ),
};

const hangingHead: Route = {
  handler: async (request, response, { signal }) => {
    if (request.method === 'HEAD') {
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Fine</title>');
  },
};

const longChain: Record<string, Route> = Object.fromEntries(
  Array.from({ length: 12 }, (_, hop) => [`/hop/${hop}`, redirect(`/hop/${hop + 1}`)]),
);

let site: TestSite;
const hosts: TestSite[] = [];
let code: RateLimiter;
let dated: RateLimiter;
let patience: RateLimiter;
/** Expected outcome per link: state and reason (Unverified), failure reason (Broken) or warning. */
let expected: Record<string, string>;

async function host(name: string, routes: Record<string, Route>, fallback?: Route) {
  const started = await startTestSite(routes, { host: name, ...(fallback ? { fallback } : {}) });
  hosts.push(started);
  return started;
}

beforeAll(async () => {
  code = rateLimiter({ limit: 5, windowMs: 2_000, retryAfter: 'seconds' });
  dated = rateLimiter({ limit: 3, windowMs: 2_000, retryAfter: 'date' });
  patience = rateLimiter({ limit: 0, windowMs: 2_000, retryAfter: 'seconds', fixedSeconds: 3600 });
  const codeHost = await host('code.test', {}, code.route);
  const datedHost = await host('dated.test', {}, dated.route);
  const patienceHost = await host('patience.test', {}, patience.route);
  const shy = await host('shy.test', { '/docs': robotsRefused });
  const guarded = await host('guarded.test', { '/page': automatedAccessPage });
  const social = await host('social.test', { '/in/someone': statusOnly(999) });
  const heads = await host('heads.test', {
    '/405': byMethod({ HEAD: statusOnly(405) }, 'fine'),
    '/404': byMethod({ HEAD: statusOnly(404) }, 'fine'),
    '/hang': hangingHead,
  });
  const flaky = await host('flaky.test', { '/once': sequence(connectionReset, 'fine') });
  const slow = await host('slow.test', { '/page': { body: 'slow but fine', delayMs: 400 } });
  const soft = await host('soft.test', {
    '/': htmlPage('<h1>Welcome</h1>', '<title>Home</title>'),
    '/docs/2019/old-article': redirect('/'),
    '/account/settings': redirect('/login?next=%2Faccount%2Fsettings', 302),
    '/login?next=%2Faccount%2Fsettings': htmlPage(
      '<form><input type="password"></form>',
      '<title>Sign in</title>',
    ),
    '/members': statusOnly(401, { 'www-authenticate': 'Basic realm="members"' }),
  });
  const chain = await host('chain.test', { ...longChain, '/hop/12': 'the end' });
  const gone = await host('gone.test', { '/removed': statusOnly(410) });
  const selfSigned = await startTestSite(
    { '/x': 'self-signed' },
    { host: 'selfsigned.test', tls: certificates.selfSigned },
  );
  hosts.push(selfSigned);

  const repositories = Array.from({ length: 10 }, (_, n) => codeHost.url(`/repo/${n}`));
  const datedPages = Array.from({ length: 6 }, (_, n) => datedHost.url(`/item/${n}`));
  const patiencePages = Array.from({ length: 3 }, (_, n) => patienceHost.url(`/wait/${n}`));
  expected = {
    ...Object.fromEntries(repositories.map((url) => [url, 'ok'])),
    ...Object.fromEntries(datedPages.map((url) => [url, 'ok'])),
    ...Object.fromEntries(patiencePages.map((url) => [url, 'unverified rate-limited'])),
    [shy.url('/docs')]: 'ok',
    [guarded.url('/page')]: 'unverified bot-protection',
    [social.url('/in/someone')]: 'unverified bot-protection',
    [heads.url('/405')]: 'ok',
    [heads.url('/404')]: 'ok',
    [heads.url('/hang')]: 'ok',
    [flaky.url('/once')]: 'ok',
    [slow.url('/page')]: 'ok',
    [soft.url('/docs/2019/old-article')]: 'ok soft-404',
    [soft.url('/account/settings')]: 'ok login-wall',
    [soft.url('/members')]: 'unverified needs-sign-in',
    [chain.url('/hop/0')]: 'ok',
    [gone.url('/missing')]: `broken ${FailureReason.NotFound}`,
    [gone.url('/removed')]: `broken ${FailureReason.NotFound}`,
    ['http://nowhere.test/']: `broken ${FailureReason.InvalidRemoteName}`,
    [selfSigned.url('/x')]: `broken ${FailureReason.InvalidCertificate}`,
  };
  site = await startTestSite(
    {
      '/': linksPage([...Object.keys(expected), '/old-page']),
      // The site's own "not found" page answered with 200.
      '/old-page': htmlPage('<h1>Page not found</h1>', '<title>404 - Page not found</title>'),
    },
    { host: 'site.test' },
  );
  expected[site.url('/old-page')] = 'ok soft-404';
});
afterAll(async () => {
  await site.close();
  await Promise.all(hosts.map((started) => started.close()));
});

describe('external hosts that push back', () => {
  it('tells broken from unverified, with default settings and no request inside a Retry-After window', async () => {
    const { links, done } = await collectScan(
      { url: site.url('/'), scanDepth: 2 },
      {
        lookup,
        retries: engineDefaults.retries,
        retryBaseDelayMs: engineDefaults.retryBaseDelayMs,
        maxRetryAfterMs: engineDefaults.maxRetryAfterMs,
        // (Only so the hanging HEAD costs 1.5 s, not 30.)
        requestTimeoutMs: 1_500,
      },
    );
    expect(done.status).toBe(ScanStatus.Complete);
    const outcomes = Object.fromEntries(
      links.map((link) => {
        const { check } = link;
        const verdict =
          check.state === 'broken'
            ? `broken ${check.reason}`
            : check.state === 'unverified'
              ? `unverified ${check.cause}`
              : check.state === 'ok' && check.warning
                ? `ok ${check.warning}`
                : check.state;
        return [link.url, verdict];
      }),
    );
    expect(outcomes).toEqual(expected);
    expect({
      code: code.insideAnnouncedWindow,
      dated: dated.insideAnnouncedWindow,
      patience: patience.insideAnnouncedWindow,
    }).toEqual({ code: 0, dated: 0, patience: 0 });
    expect(code.refused).toBeGreaterThan(0);
    expect(dated.refused).toBeGreaterThan(0);
    expect(done.summary).toMatchObject({ uniqueBrokenLinks: 4, uniqueUnverifiedLinks: 6 });
  });

  it('stops asking a host that used up its time budget: its other links are Unverified, not Broken', async () => {
    const slow = await host('slow.test', { '/a': { body: 'a', delayMs: 300 } });
    const page = await host('site.test', {
      '/': linksPage(['/a', '/b', '/c'].map((path) => slow.url(path))),
    });
    const { links } = await collectScan(
      { url: page.url('/'), scanDepth: 1 },
      { lookup, perHostConcurrency: 1, hostTimeBudgetMs: 100 },
    );
    const verdicts = links.map(({ url, check }) => [
      url.replace(slow.origin, ''),
      check.state === 'unverified' ? check.cause : check.state,
    ]);
    expect(verdicts.sort()).toEqual([
      ['/a', 'ok'],
      ['/b', 'host-too-slow'],
      ['/c', 'host-too-slow'],
    ]);
    expect(slow.requestedPaths()).toEqual(['/a']);
  });
});
