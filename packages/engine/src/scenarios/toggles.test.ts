// checkImages and checkIframes off: those links are skipped (images-off, iframes-off) and never
// requested; every other link is still checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectScan,
  createLookup,
  htmlPage,
  startTestSite,
  urlOutcomes,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test']);
let site: TestSite;

const images = ['/img/a.png', '/img/a-2x.png', '/img/p.webp', '/img/p.jpg', '/img/poster.jpg'];
const others = ['/app.js', '/media/v.mp4', '/page.html', '/style.css'];

beforeAll(async () => {
  site = await startTestSite(
    {
      '/': htmlPage(
        [
          '<link rel="stylesheet" href="/style.css">',
          '<script src="/app.js"></script>',
          '<a href="/page.html">page</a>',
          '<img src="/img/a.png" srcset="/img/a-2x.png 2x" alt="">',
          '<picture><source srcset="/img/p.webp"><img src="/img/p.jpg" alt=""></picture>',
          '<video src="/media/v.mp4" poster="/img/poster.jpg"></video>',
          '<iframe src="/frame.html"></iframe>',
        ].join('\n'),
      ),
    },
    { host: 'site.test', fallback: { headers: { 'content-type': 'text/plain' }, body: 'ok' } },
  );
});
afterAll(() => site.close());

const outcome = (path: string, state: string, detail: string | number) => ({
  url: site.url(path),
  state,
  detail,
  referenceCount: 1,
});
const sorted = <T extends { url: string }>(list: T[]) =>
  list.sort((a, b) => (a.url < b.url ? -1 : 1));

describe('check toggles', () => {
  it('checks images and iframes by default', async () => {
    const { links } = await collectScan({ url: site.url('/') }, { lookup });
    expect(urlOutcomes(links)).toEqual(
      sorted([...images, ...others, '/frame.html'].map((path) => outcome(path, 'ok', 200))),
    );
  });

  it('skips image links when checkImages is off', async () => {
    const before = site.requests.length;
    const { links } = await collectScan({ url: site.url('/'), checkImages: false }, { lookup });
    expect(urlOutcomes(links)).toEqual(
      sorted([
        ...images.map((path) => outcome(path, 'skipped', 'images-off')),
        ...[...others, '/frame.html'].map((path) => outcome(path, 'ok', 200)),
      ]),
    );
    expect(site.requests.slice(before).filter((r) => r.path.startsWith('/img/'))).toEqual([]);
  });

  it('skips iframe links when checkIframes is off', async () => {
    const before = site.requests.length;
    const { links } = await collectScan({ url: site.url('/'), checkIframes: false }, { lookup });
    expect(urlOutcomes(links)).toEqual(
      sorted([
        outcome('/frame.html', 'skipped', 'iframes-off'),
        ...[...images, ...others].map((path) => outcome(path, 'ok', 200)),
      ]),
    );
    expect(site.requests.slice(before).filter((r) => r.path === '/frame.html')).toEqual([]);
  });
});
